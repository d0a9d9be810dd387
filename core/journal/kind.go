package journal

// Kind is an event's type as stored in the journal's type column and
// hashed into the chain. The values are part of the shared contract: a
// database written by either implementation carries exactly these strings,
// so they never change.
type Kind string

// The event kinds collab appends. Readers must still accept any other
// string (older or newer writers may append kinds not listed here).
const (
	KindWorkspaceOpened      Kind = "workspace.opened"
	KindWorktreeRegistered   Kind = "worktree.registered"
	KindSessionJoined        Kind = "session.joined"
	KindSessionResumed       Kind = "session.resumed"
	KindSessionEnded         Kind = "session.ended"
	KindSessionCursorReset   Kind = "session.cursor_reset"
	KindTaskCreated          Kind = "task.created"
	KindTaskClaimed          Kind = "task.claimed"
	KindTaskLeaseRenewed     Kind = "task.lease_renewed"
	KindTaskProgressed       Kind = "task.progressed"
	KindTaskReleased         Kind = "task.released"
	KindTaskBlocked          Kind = "task.blocked"
	KindTaskUnblocked        Kind = "task.unblocked"
	KindTaskCompleted        Kind = "task.completed"
	KindTaskReportedComplete Kind = "task.reported_complete"
	KindTaskAccepted         Kind = "task.accepted"
	KindTaskChangesRequested Kind = "task.changes_requested"
	KindTaskClaimExpired     Kind = "task.claim_expired"
	KindTaskRecovered        Kind = "task.recovered"
	KindArtifactAttached     Kind = "artifact.attached"
	KindDecisionRecorded     Kind = "decision.recorded"
	KindReportPosted         Kind = "report.posted"
	KindHandoffOffered       Kind = "handoff.offered"
	KindHandoffAccepted      Kind = "handoff.accepted"
	KindHandoffDeclined      Kind = "handoff.declined"
	KindHandoffExpired       Kind = "handoff.expired"
)

// The event kinds of independence claims, an extension of this
// implementation (docs/independence.md). The reference passes them through
// like any kind it does not know: it hashes, verifies and pages them, and
// none of its projections reads them.
const (
	KindIndependenceClaimed     Kind = "independence.claimed"
	KindIndependenceReleased    Kind = "independence.released"
	KindIndependentReviewMarked Kind = "independence.review_marked"
)
