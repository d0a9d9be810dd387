package mcp

// taskCreateTool is collab_task_create, served by handleTaskCreate.
func taskCreateTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_create", Title: "Create a task", Class: RetrySafe,
		Description: "Create a task with optional dependencies and repository-relative path scopes. In a bound session tasks default to edit mode, which needs at least one scope and a distinct-session review.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"actor", actorField()},
			{"idempotency_key", idempotencyKeyField()},
			{"task_id", str().min(1).max(200)},
			{"title", str().min(1).max(300)},
			{"description", str().max(8000)},
			{"dependencies", array(str().min(1).max(200)).max(128)},
			{"path_scopes", array(str().min(1).max(500)).max(128).describe("Repository-relative paths this task may edit, such as src/parser")},
			{"work_mode", enum("coordination", "read_only", "edit")},
			{"completion_policy", enum("reported", "accepted")},
			{"expected_base_sha", str().matching(`^[a-fA-F0-9]{40,64}$`)},
		}, "workspace_id", "idempotency_key", "title"),
	}, handleTaskCreate
}

// taskListTool is collab_task_list, served by handleTaskList.
func taskListTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_list", Title: "List tasks", Class: ReadOnly,
		Description: "List the workspace's tasks with their effective status (including recovery_required and reported_complete), review, lease, session, worktree and checkpoint state.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"status", enum("open", "claimed", "blocked", "completed")},
		}, "workspace_id"),
	}, handleTaskList
}

// taskGetTool is collab_task_get, served by handleTaskGet.
func taskGetTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_get", Title: "Read a task", Class: ReadOnly,
		Description: "Return one task with its lease, review and checkpoint state and its artifact references.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"task_id", taskIDField()},
		}, "workspace_id", "task_id"),
	}, handleTaskGet
}

// taskClaimTool is collab_task_claim, served by handleTaskClaim.
func taskClaimTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_claim", Title: "Claim a task lease", Class: RetrySafe,
		Description: "Take the advisory lease on a task when its dependencies are accepted and no live claim overlaps its path scopes anywhere in the repository. An expired session lease needs collab_task_recover instead.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"task_id", taskIDField()},
			{"actor", actorField()},
			{"idempotency_key", idempotencyKeyField()},
			{"expected_version", expectedVersionField()},
			{"ttl_seconds", leaseTTLField()},
		}, "workspace_id", "task_id", "idempotency_key", "expected_version"),
	}, handleTaskClaim
}

// taskRecoverTool is collab_task_recover, served by handleTaskRecover.
func taskRecoverTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_recover", Title: "Recover an expired session lease", Class: RetrySafe,
		Description: "Acknowledge an expired session lease with a note, then take the task over, release it or block it. Dependencies and path conflicts are checked again; prior work is not accepted by this.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"task_id", taskIDField()},
			{"idempotency_key", idempotencyKeyField()},
			{"expected_version", expectedVersionField()},
			{"recovery_note", str().min(1).max(4000)},
			{"action", enum("takeover", "release", "block")},
			{"blocker", str().min(1).max(2000)},
			{"ttl_seconds", leaseTTLField()},
		}, "workspace_id", "task_id", "idempotency_key", "expected_version", "recovery_note"),
	}, handleTaskRecover
}

// taskRenewTool is collab_task_renew, served by handleTaskRenew.
func taskRenewTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_renew", Title: "Renew a task lease", Class: RetrySafe,
		Description: "Extend the lease you hold; a renewal never shortens it.",
		Input:       object(leaseProps(Property{"ttl_seconds", leaseTTLField()}), leaseRequired()...),
	}, handleTaskRenew
}

// taskProgressTool is collab_task_progress, served by handleTaskProgress.
func taskProgressTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_progress", Title: "Note task progress", Class: RetrySafe,
		Description: "Record a short progress note on a task you hold. Use a structured report when evidence, confidence or disagreement matters.",
		Input:       object(leaseProps(Property{"message", str().min(1).max(2000)}), leaseRequired("message")...),
	}, handleTaskProgress
}

// taskReleaseTool is collab_task_release, served by handleTaskRelease.
func taskReleaseTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_release", Title: "Release a task lease", Class: RetrySafe,
		Description: "Give a task you hold back to the open pool; pending handoff offers for it expire.",
		Input:       object(leaseProps(Property{"summary", str().max(2000)}), leaseRequired()...),
	}, handleTaskRelease
}

// taskBlockTool is collab_task_block, served by handleTaskBlock.
func taskBlockTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_block", Title: "Block a task", Class: RetrySafe,
		Description: "Record what blocks a task you hold and release its lease and path scopes.",
		Input:       object(leaseProps(Property{"blocker", str().min(1).max(2000)}), leaseRequired("blocker")...),
	}, handleTaskBlock
}

// taskUnblockTool is collab_task_unblock, served by handleTaskUnblock.
func taskUnblockTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_unblock", Title: "Unblock a task", Class: RetrySafe,
		Description: "Return a blocked task to the open pool, optionally with a note. No lease is needed.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"task_id", taskIDField()},
			{"actor", actorField()},
			{"idempotency_key", idempotencyKeyField()},
			{"expected_version", expectedVersionField()},
			{"note", str().max(2000)},
		}, "workspace_id", "task_id", "idempotency_key", "expected_version"),
	}, handleTaskUnblock
}

// artifactAttachTool is collab_artifact_attach, served by handleArtifactAttach.
func artifactAttachTool() (Tool, Handler) {
	return Tool{
		Name: "collab_artifact_attach", Title: "Attach an artifact reference", Class: RetrySafe,
		Description: "Attach a reference to a file, commit, test, data record or URL to a task you hold. Only the reference is stored, never the bytes.",
		Input: object(leaseProps(
			Property{"kind", enum("file", "commit", "test", "data", "url", "other")},
			Property{"uri", str().min(1).max(2000)},
			Property{"sha256", str().length(64)},
			Property{"media_type", str().max(200)},
			Property{"label", str().max(300)},
		), leaseRequired("kind", "uri")...),
	}, handleArtifactAttach
}

// taskCompleteTool is collab_task_complete, served by handleTaskComplete.
func taskCompleteTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_complete", Title: "Report a task complete", Class: RetrySafe,
		Description: "Report the task you hold as done. In legacy mode this is the holder's own report; in a bound session it posts a completion report, and reviewed tasks wait for a distinct session to accept.",
		Input: object(leaseProps(
			Property{"summary", str().min(1).max(4000)},
			Property{"confidence", confidenceField()},
			Property{"confidence_basis", str().max(2000)},
			Property{"limits", str().max(2000)},
			Property{"evidence_refs", evidenceRefsField()},
		), leaseRequired("summary")...),
	}, handleTaskComplete
}

// taskReviewTool is collab_task_review, served by handleTaskReview.
func taskReviewTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_review", Title: "Review a reported completion", Class: RetrySafe,
		Description: "As a session other than the reporter, accept a reported completion or request changes. Acceptance is local coordination review, not a merge, a deployment or proof.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"task_id", taskIDField()},
			{"idempotency_key", idempotencyKeyField()},
			{"expected_version", expectedVersionField()},
			{"outcome", enum("accept", "request_changes")},
			{"summary", str().min(1).max(4000)},
			{"evidence_refs", evidenceRefsField()},
		}, "workspace_id", "task_id", "idempotency_key", "expected_version", "outcome", "summary"),
	}, handleTaskReview
}

// handoffOfferTool is collab_handoff_offer, served by handleHandoffOffer.
func handoffOfferTool() (Tool, Handler) {
	return Tool{
		Name: "collab_handoff_offer", Title: "Offer a task to someone else", Class: RetrySafe,
		Description: "Invite another session (or legacy actor) to take over a task you hold. You keep the lease until they accept.",
		Input: object(leaseProps(
			Property{"to_actor", str().min(1).max(200)},
			Property{"to_session_id", str().min(1)},
			Property{"summary", str().min(1).max(4000)},
			Property{"ttl_seconds", leaseTTLField()},
		), leaseRequired("summary")...),
	}, handleHandoffOffer
}

// handoffRespondTool is collab_handoff_respond, served by handleHandoffRespond.
func handoffRespondTool() (Tool, Handler) {
	return Tool{
		Name: "collab_handoff_respond", Title: "Accept or decline a handoff", Class: RetrySafe,
		Description: "Answer an offer addressed to you. Accepting moves the advisory lease to you in the same step.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"handoff_id", str().min(1)},
			{"actor", actorField()},
			{"idempotency_key", idempotencyKeyField()},
			{"expected_version", expectedVersionField()},
			{"response", enum("accept", "decline")},
			{"ttl_seconds", leaseTTLField()},
		}, "workspace_id", "handoff_id", "idempotency_key", "expected_version", "response"),
	}, handleHandoffRespond
}

// reportAppendTool is collab_report_append, served by handleReportAppend.
func reportAppendTool() (Tool, Handler) {
	return Tool{
		Name: "collab_report_append", Title: "Post a structured report", Class: RetrySafe,
		Description: "Post an observation, inference, proposal or scoped decision with evidence, confidence and limits. Reports may support, challenge, correct or resolve earlier ones and need no lease.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"idempotency_key", idempotencyKeyField()},
			{"task_id", str().min(1)},
			{"to_session_id", str().min(1).describe("Route the report to one session; this is addressing, not access control")},
			{"kind", enum("observation", "inference", "proposal", "decision")},
			{"body", str().min(1).max(8000)},
			{"evidence_refs", evidenceRefsField()},
			{"confidence", confidenceField()},
			{"confidence_basis", str().max(2000)},
			{"limits", str().max(2000)},
			{"relation", enum("informs", "supports", "challenges", "corrects", "withdraws", "supersedes", "resolves")},
			{"target_report_id", str().min(1)},
			{"authority_scope", str().max(1000)},
			{"authority_basis", str().max(2000)},
		}, "workspace_id", "idempotency_key", "kind", "body"),
	}, handleReportAppend
}

// reportListTool is collab_report_list, served by handleReportList.
func reportListTool() (Tool, Handler) {
	return Tool{
		Name: "collab_report_list", Title: "List reports", Class: ReadOnly,
		Description: "Read reports in journal order, optionally after an event sequence or only for one task or one addressed session.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"after_event_sequence", integer().atLeast(0)},
			{"limit", integer().atLeast(1).atMost(500)},
			{"task_id", str().min(1)},
			{"to_session_id", str().min(1)},
		}, "workspace_id"),
	}, handleReportList
}

// decisionRecordTool is collab_decision_record, served by handleDecisionRecord.
func decisionRecordTool() (Tool, Handler) {
	return Tool{
		Name: "collab_decision_record", Title: "Record a decision", Class: RetrySafe,
		Description: "Record a decision. In legacy mode it is a plain decision record; in a bound session it becomes a decision report and needs an explicit authority scope and basis.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"actor", actorField()},
			{"idempotency_key", idempotencyKeyField()},
			{"topic", str().min(1).max(500)},
			{"decision", str().min(1).max(4000)},
			{"rationale", str().max(4000)},
			{"authority_scope", str().max(1000)},
			{"authority_basis", str().max(2000)},
		}, "workspace_id", "idempotency_key", "topic", "decision"),
	}, handleDecisionRecord
}
