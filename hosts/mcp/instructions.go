package mcp

// Instructions is the server's initialize-time guidance to the model. It
// states the boundaries of the journal in this project's own words.
const Instructions = `collab is a local coordination journal shared by independent coding-agent sessions on one machine. ` +
	`Call collab_session_start once per MCP process to get a credential-bound session; when the host restarts the process it resumes that session from a private credential file, and the bearer token never reaches the model. ` +
	`Then poll collab_next for new events and acknowledge what you have processed with collab_cursor_ack; acknowledgement means processed, never agreed. ` +
	`Share findings as structured reports (observation, inference, proposal, or a decision with an explicit authority scope), each with evidence, confidence and limits. ` +
	`Claim a task before editing files inside its path scopes and renew the lease for long work. A claim is an advisory coordination lease: not ownership, not a file lock, not authority. ` +
	`Completion of an edit task is reported by its holder and stays pending until a different session reviews it; a challenge is appended, never edited away, and stays on the record as disagreement. ` +
	`An expired session lease is taken over only through explicit recovery. Git checkpoints are local evidence, not attribution and not an atomic lock across Git and SQLite. ` +
	`Record short coordination facts only: never credentials, secrets, prompts, transcripts, chain-of-thought or sensitive source text. ` +
	`Rolling a session cursor back needs the host's permission and an audited collab_cursor_reset before session writes resume. ` +
	`The host, not this server, owns starting sessions, waking them, waiting and stopping. ` +
	`The collab_session_join/list/heartbeat/leave tools are a separate, unauthenticated presence plane for routing hints; they never bind this process or hold leases. ` +
	`collab_anchor_status only reads: it compares this journal with an optional local Zerone witness sidecar file, never contacts a chain, broadcasts or spends funds, and an anchor makes nothing true or authoritative.`
