package mcp

import "github.com/agenttool/collab/core/field"

// constructor is one tool: it returns the tool's public definition and the
// handler that serves it, together, so a definition cannot exist without a
// handler (nor a handler without a definition).
type constructor func() (Tool, Handler)

// catalogue lists every tool's constructor in the order tools/list
// presents them: the reference's 32, then the extensions.
func catalogue() []constructor {
	return []constructor{
		sessionJoinTool, sessionListTool, sessionHeartbeatTool, sessionLeaveTool,
		sessionStartTool, sessionEndTool, workspaceOpenTool, workspaceStatusTool,
		nextTool, cursorAckTool, cursorResetTool,
		taskCreateTool, taskListTool, taskGetTool, taskClaimTool, taskRecoverTool, taskRenewTool,
		taskProgressTool, taskReleaseTool, taskBlockTool, taskUnblockTool, artifactAttachTool,
		taskCompleteTool, taskReviewTool,
		reportAppendTool, reportListTool, decisionRecordTool,
		handoffOfferTool, handoffRespondTool,
		eventsSinceTool, journalVerifyTool, anchorStatusTool,
		searchTool,
		waitTool,
		reportReceiptsTool, reportMarkTool,
		independenceClaimTool, independenceReleaseTool, independenceListTool,
	}
}

// Tools returns every tool, definition and handler, ready to serve, in
// tools/list order. A constructor that hands back a nil handler is a
// programming error and panics here, so no tool is ever listed that
// cannot be called.
func Tools() []Tool {
	return assemble(catalogue())
}

// assemble calls each constructor and joins its definition and handler.
func assemble(cs []constructor) []Tool {
	out := make([]Tool, 0, len(cs))
	for _, c := range cs {
		t, h := c()
		if h == nil {
			panic("mcp: tool " + t.Name + " has no handler")
		}
		t.Handle = h
		t.Input.compile()
		out = append(out, t)
	}
	return out
}

// Definitions returns the same tools as Tools. It is the name readers of
// the public surface (generated docs, host files, name checks) use; they
// never call a handler.
func Definitions() []Tool { return Tools() }

// sessionJoinTool is collab_session_join, served by handleSessionJoin.
func sessionJoinTool() (Tool, Handler) {
	return Tool{
		Name: "collab_session_join", Title: "Announce presence (self-declared)", Class: RetrySafe,
		Description: "Record or replay an unauthenticated presence hint for one client instance and return its actor_key. It does not bind this process and grants nothing.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"client_instance_id", fullIDField(field.ClientInstanceID).describe("Stable id of this client incarnation; joining again with it replays the same record")},
			{"actor_label", textField(field.Actor).describe("Display label; it identifies nobody and fences nothing")},
			{"runtime_kind", textField(field.RuntimeKind).describe("Kind of agent runtime, for example claude-code or codex")},
			{"provider_label", textField(field.ProviderLabel)},
			{"model_label", textField(field.ModelLabel)},
			{"declared_capabilities", listField(field.DeclaredCapabilities, textField(field.DeclaredCapability)).describe("Symbolic routing hints, not permissions")},
			{"ttl_seconds", presenceTTLField()},
		}, "workspace_id", "client_instance_id", "actor_label", "runtime_kind"),
	}, handleSessionJoin
}

// sessionListTool is collab_session_list, served by handleSessionList.
func sessionListTool() (Tool, Handler) {
	return Tool{
		Name: "collab_session_list", Title: "List presence hints", Class: ReadOnly,
		Description: "List recent presence hints that are live, stale or left. Presence says nothing about health, identity or permission.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"presence", enum("live", "stale", "left")},
			{"limit", countField(field.SessionListLimit)},
		}, "workspace_id"),
	}, handleSessionList
}

// sessionHeartbeatTool is collab_session_heartbeat, served by handleSessionHeartbeat.
func sessionHeartbeatTool() (Tool, Handler) {
	return Tool{
		Name: "collab_session_heartbeat", Title: "Refresh a presence hint", Class: RetrySafe,
		Description: "Extend a presence hint by its time to live. It never touches task leases and proves nothing about the caller.",
		Input: object([]Property{
			{"session_id", boundedIDField(field.SessionID).describe("Presence session id from collab_session_join")},
			{"idempotency_key", idempotencyKeyField()},
			{"expected_version", versionField().describe("The presence version you last read")},
			{"ttl_seconds", presenceTTLField()},
		}, "session_id", "idempotency_key", "expected_version"),
	}, handleSessionHeartbeat
}

// sessionLeaveTool is collab_session_leave, served by handleSessionLeave.
func sessionLeaveTool() (Tool, Handler) {
	return Tool{
		Name: "collab_session_leave", Title: "Withdraw a presence hint", Class: RetrySafe,
		Description: "Mark a presence hint as left. It does not end a credential-bound session or release any lease.",
		Input: object([]Property{
			{"session_id", boundedIDField(field.SessionID).describe("Presence session id from collab_session_join")},
			{"idempotency_key", idempotencyKeyField()},
			{"expected_version", versionField().describe("The presence version you last read")},
		}, "session_id", "idempotency_key", "expected_version"),
	}, handleSessionLeave
}

// sessionStartTool is collab_session_start, served by handleSessionStart.
func sessionStartTool() (Tool, Handler) {
	return Tool{
		Name: "collab_session_start", Title: "Start a credential-bound session", Class: Mutating,
		Description: "Create a session for this process and bind it. Its bearer token goes only to a private 0600 file beside the database, never into a tool result.",
		Input: object([]Property{
			{"root_path", textField(field.RootPath).describe("Directory of the repository worktree this session works in")},
			{"actor", actorField().describe("Display label for this session; the credential, not the label, fences its writes")},
			{"role", textField(field.Role)},
			{"parent_session_id", idField(field.ParentSessionID)},
			{"repository_key", textField(field.RepositoryKey).describe("Optional explicit key for directories that are not Git repositories")},
		}, "root_path", "actor"),
	}, handleSessionStart
}

// sessionEndTool is collab_session_end, served by handleSessionEnd.
func sessionEndTool() (Tool, Handler) {
	return Tool{
		Name: "collab_session_end", Title: "End the bound session", Class: Destructive,
		Description: "End this process's session so its credential can no longer write, and delete its credential file. Live leases must be released or handed off first; offers addressed to it expire.",
		Input: object([]Property{
			{"reason", textField(field.EndReason)},
		}),
	}, handleSessionEnd
}

// cursorAckTool is collab_cursor_ack, served by handleCursorAck.
func cursorAckTool() (Tool, Handler) {
	return Tool{
		Name: "collab_cursor_ack", Title: "Acknowledge processed events", Class: RetrySafe,
		Description: "Move the session's cursor forward to an exact epoch/sequence/hash anchor. It records that events were processed, not that anyone agreed with them.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"anchor", anchorField("An anchor returned by collab_next or collab_events_since")},
			{"expected_cursor_version", integer().atLeast(0)},
		}, "workspace_id", "anchor", "expected_cursor_version"),
	}, handleCursorAck
}

// cursorResetTool is collab_cursor_reset, served by handleCursorReset.
func cursorResetTool() (Tool, Handler) {
	return Tool{
		Name: "collab_cursor_reset", Title: "Reset a session cursor on purpose", Class: RetrySafe,
		Description: "Move the session cursor to an exact valid anchor, backwards if needed, with a recorded reason. Polling never does this by itself.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"idempotency_key", idempotencyKeyField()},
			{"target", anchorField("The anchor to move the cursor to")},
			{"expected_cursor_version", integer().atLeast(0)},
			{"reason", textField(field.ResetReason)},
		}, "workspace_id", "idempotency_key", "target", "expected_cursor_version", "reason"),
	}, handleCursorReset
}

// nextTool is collab_next, served by handleNext.
func nextTool() (Tool, Handler) {
	return Tool{
		Name: "collab_next", Title: "Poll for what needs attention", Class: Mutating,
		Description: "Return the next page of events (1 to 50, default 10) with the reports routed to you in that page, plus the current claimable, conflicted and offered tasks. Polling never acknowledges.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"actor", actorField()},
			{"after_sequence", integer().atLeast(0)},
			{"known_cursor", anchorField("The last anchor you processed, checked but never used to choose the page")},
			{"event_limit", countField(field.EventLimit).describe(eventLimitDescription())},
		}, "workspace_id"),
	}, handleNext
}

// workspaceOpenTool is collab_workspace_open, served by handleWorkspaceOpen.
func workspaceOpenTool() (Tool, Handler) {
	return Tool{
		Name: "collab_workspace_open", Title: "Open a workspace (legacy mode)", Class: RetrySafe,
		Description: "Open or create the workspace of a repository directory for unbound, label-based clients. New processes should call collab_session_start instead.",
		Input: object([]Property{
			{"root_path", textField(field.RootPath).describe("Directory of the repository worktree")},
			{"name", textField(field.WorkspaceName)},
			{"actor", actorField()},
			{"repository_key", textField(field.RepositoryKey).describe("Optional explicit key for directories that are not Git repositories")},
		}, "root_path", "actor"),
	}, handleWorkspaceOpen
}

// workspaceStatusTool is collab_workspace_status, served by handleWorkspaceStatus.
func workspaceStatusTool() (Tool, Handler) {
	return Tool{
		Name: "collab_workspace_status", Title: "Summarise a workspace", Class: ReadOnly,
		Description: "Return task counts, live and expired claims, blocked tasks, pending reviews, active sessions, recent reports and recent decisions.",
		Input:       object([]Property{{"workspace_id", workspaceIDField()}}, "workspace_id"),
	}, handleWorkspaceStatus
}

// eventsSinceTool is collab_events_since, served by handleEventsSince.
func eventsSinceTool() (Tool, Handler) {
	return Tool{
		Name: "collab_events_since", Title: "Read the event journal", Class: ReadOnly,
		Description: "Read a verified page of the append-only journal after a sequence number or an exact anchor. Reading never acknowledges.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"after_sequence", integer().atLeast(0)},
			{"after_anchor", anchorField("Read after this exact anchor; give this or after_sequence, not both")},
			{"limit", countField(field.PageLimit)},
		}, "workspace_id"),
	}, handleEventsSince
}

// journalVerifyTool is collab_journal_verify, served by handleJournalVerify.
func journalVerifyTool() (Tool, Handler) {
	return Tool{
		Name: "collab_journal_verify", Title: "Verify the whole journal", Class: ReadOnly,
		Description: "Recompute every event hash of the workspace from genesis and report whether the chain is intact.",
		Input:       object([]Property{{"workspace_id", workspaceIDField()}}, "workspace_id"),
	}, handleJournalVerify
}

// anchorStatusTool is collab_anchor_status, served by handleAnchorStatus.
func anchorStatusTool() (Tool, Handler) {
	return Tool{
		Name: "collab_anchor_status", Title: "Check the local anchor ledger", Class: ReadOnly,
		Description: "Compare the journal with the newest anchor in the local sidecar ledger. Local file read only: the host sets the ledger path, a caller cannot choose or discover it, and no chain is contacted.",
		Input:       object([]Property{{"workspace_id", workspaceIDField()}}, "workspace_id"),
	}, handleAnchorStatus
}
