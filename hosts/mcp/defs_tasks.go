package mcp

import "github.com/agenttool/collab/core/field"

// taskCreateTool is collab_task_create, served by handleTaskCreate.
func taskCreateTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_create", Title: "Create a task", Class: RetrySafe,
		Description: "Create a task with optional dependencies and repository-relative path scopes. In a bound session tasks default to edit mode, which needs at least one scope and a distinct-session review.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"actor", actorField()},
			{"idempotency_key", idempotencyKeyField()},
			{"task_id", boundedIDField(field.NewTaskID)},
			{"title", textField(field.Title)},
			{"description", textField(field.Description)},
			{"dependencies", listField(field.Dependencies, boundedIDField(field.Dependency))},
			{"path_scopes", listField(field.PathScopes, textField(field.PathScope)).describe("Repository-relative paths this task may edit, such as src/parser")},
			{"work_mode", enum("coordination", "read_only", "edit")},
			{"completion_policy", enum("reported", "accepted")},
			{"expected_base_sha", hexField(field.ExpectedBaseSHA)},
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
			{"recovery_note", textField(field.RecoveryNote)},
			{"action", enum("takeover", "release", "block")},
			{"blocker", textField(field.Blocker)},
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
		Input:       object(leaseProps(Property{"message", textField(field.Message)}), leaseRequired("message")...),
	}, handleTaskProgress
}

// taskReleaseTool is collab_task_release, served by handleTaskRelease.
func taskReleaseTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_release", Title: "Release a task lease", Class: RetrySafe,
		Description: "Give a task you hold back to the open pool; pending handoff offers for it expire.",
		Input:       object(leaseProps(Property{"summary", textField(field.ReleaseSummary)}), leaseRequired()...),
	}, handleTaskRelease
}

// taskBlockTool is collab_task_block, served by handleTaskBlock.
func taskBlockTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_block", Title: "Block a task", Class: RetrySafe,
		Description: "Record what blocks a task you hold and release its lease and path scopes.",
		Input:       object(leaseProps(Property{"blocker", textField(field.Blocker)}), leaseRequired("blocker")...),
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
			{"note", textField(field.UnblockNote)},
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
			Property{"uri", textField(field.URI)},
			Property{"sha256", hexField(field.SHA256)},
			Property{"media_type", textField(field.MediaType)},
			Property{"label", textField(field.Label)},
		), leaseRequired("kind", "uri")...),
	}, handleArtifactAttach
}

// taskCompleteTool is collab_task_complete, served by handleTaskComplete.
func taskCompleteTool() (Tool, Handler) {
	return Tool{
		Name: "collab_task_complete", Title: "Report a task complete", Class: RetrySafe,
		Description: "Report the task you hold as done. In legacy mode this is the holder's own report; in a bound session it posts a completion report, and reviewed tasks wait for a distinct session to accept.",
		Input: object(leaseProps(
			Property{"summary", textField(field.Summary)},
			Property{"confidence", confidenceField()},
			Property{"confidence_basis", textField(field.ConfidenceBasis)},
			Property{"limits", textField(field.Limits)},
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
			{"summary", textField(field.Summary)},
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
			Property{"to_actor", textField(field.Actor)},
			Property{"to_session_id", idField(field.ToSessionID)},
			Property{"summary", textField(field.Summary)},
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
			{"handoff_id", idField(field.HandoffID)},
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
			{"task_id", idField(field.TaskID)},
			{"to_session_id", idField(field.ToSessionID).describe("Route the report to one session; this is addressing, not access control")},
			{"kind", enum("observation", "inference", "proposal", "decision")},
			{"body", textField(field.Body)},
			{"evidence_refs", evidenceRefsField()},
			{"confidence", confidenceField()},
			{"confidence_basis", textField(field.ConfidenceBasis)},
			{"limits", textField(field.Limits)},
			{"relation", enum("informs", "supports", "challenges", "corrects", "withdraws", "supersedes", "resolves")},
			{"target_report_id", idField(field.TargetReportID)},
			{"authority_scope", textField(field.AuthorityScope)},
			{"authority_basis", textField(field.AuthorityBasis)},
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
			{"limit", countField(field.PageLimit)},
			{"task_id", idField(field.TaskID)},
			{"to_session_id", idField(field.ToSessionID)},
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
			{"topic", textField(field.Topic)},
			{"decision", textField(field.Decision)},
			{"rationale", textField(field.Rationale)},
			{"authority_scope", textField(field.AuthorityScope)},
			{"authority_basis", textField(field.AuthorityBasis)},
		}, "workspace_id", "idempotency_key", "topic", "decision"),
	}, handleDecisionRecord
}
