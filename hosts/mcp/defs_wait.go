package mcp

// Extension tools go beyond the reference's 32. They never change what the
// 32 do, and a profile (AGENTOOL_COLLAB_TOOLS) may hide them.

// WaitMaxMillis bounds collab_wait's timeout_ms, below every host's
// tool-call timeout (Claude Code and Codex allow at least 60 s).
const WaitMaxMillis = 50000

// waitDefaultMillis is collab_wait's timeout when none is given.
const waitDefaultMillis = 25000

// waitTool is collab_wait, served by handleWait.
func waitTool() (Tool, Handler) {
	return Tool{
		Name: "collab_wait", Title: "Wait for something new (extension)", Class: ReadOnly, Waits: true,
		Description: "Block up to timeout_ms (default 25000, max 50000) until the journal holds something new for you (a handoff offered to you, a report addressed to you, a review of your work, a lost claim; or, with scope workspace, any new event), then return counts and the head. It returns no events and never moves your cursor: call collab_next next.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"actor", actorField()},
			{"after_sequence", integer().atLeast(0).describe("Legacy mode: the last sequence you have seen (default: the head when the call begins)")},
			{"timeout_ms", integer().atLeast(0).atMost(WaitMaxMillis).describe("How long to wait, in milliseconds (default 25000)")},
			{"scope", enum("mine", "workspace").describe("mine (default): wake for what concerns you; workspace: wake for any new event")},
		}, "workspace_id"),
	}, handleWait
}
