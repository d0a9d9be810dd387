package claude

// ConversationVariable is the variable Claude Code sets, for the MCP
// servers and the hooks of one conversation alike, to that conversation's
// id (measured with Claude Code 2.1.197; a resumed conversation keeps its
// id). Hooks also receive it as session_id on stdin. The server records it
// in its host link so a hook finds the session of its own conversation.
const ConversationVariable = "CLAUDE_CODE_SESSION_ID"
