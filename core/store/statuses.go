package store

// TaskStatus is a task's stored status (the tasks.status column) or, in
// Task.EffectiveStatus, the status a reader should act on. The strings are
// part of the compatibility rules (docs/contract.md) and appear verbatim in results and events.
type TaskStatus string

// Stored task statuses: the only values the tasks.status column admits.
const (
	TaskOpen      TaskStatus = "open"
	TaskClaimed   TaskStatus = "claimed"
	TaskBlocked   TaskStatus = "blocked"
	TaskCompleted TaskStatus = "completed"
)

// Effective-only task statuses: computed at read time from the stored
// status, the lease expiry and the review state, never stored.
const (
	// TaskLeaseExpired is a legacy (label) claim whose lease ran out: any
	// actor may claim the task again.
	TaskLeaseExpired TaskStatus = "lease_expired"
	// TaskRecoveryRequired is a session claim whose lease ran out: the
	// task must be recovered (collab_task_recover) before it moves on.
	TaskRecoveryRequired TaskStatus = "recovery_required"
	// TaskReportedComplete is a completed task waiting for review.
	TaskReportedComplete TaskStatus = "reported_complete"
	// TaskAccepted is a completed task whose review accepted it.
	TaskAccepted TaskStatus = "accepted"
)

// ReviewStatus is a task's review state (the tasks.review_status column).
type ReviewStatus string

// The review states the tasks.review_status column admits.
const (
	ReviewLegacyUnreviewed ReviewStatus = "legacy_unreviewed"
	ReviewNotRequired      ReviewStatus = "not_required"
	ReviewPending          ReviewStatus = "pending"
	ReviewAccepted         ReviewStatus = "accepted"
	ReviewChangesRequested ReviewStatus = "changes_requested"
)

// HandoffStatus is a handoff offer's state (the handoffs.status column).
type HandoffStatus string

// The handoff states: an offer starts pending and is resolved exactly once.
const (
	HandoffPending  HandoffStatus = "pending"
	HandoffAccepted HandoffStatus = "accepted"
	HandoffDeclined HandoffStatus = "declined"
	HandoffExpired  HandoffStatus = "expired"
)

// CompletionPolicy says whether a completed task needs a review.
type CompletionPolicy string

// The completion policies a task can be created with.
const (
	// CompletionReported completes a task when its holder reports it done.
	CompletionReported CompletionPolicy = "reported"
	// CompletionAccepted leaves a completed task pending review.
	CompletionAccepted CompletionPolicy = "accepted"
)

// SessionStatus is a coordination session's state.
type SessionStatus string

// The session states: active until ended, never back.
const (
	SessionActive SessionStatus = "active"
	SessionEnded  SessionStatus = "ended"
)

// Workspace is one repository's shared journal.
type Workspace struct {
	ID                string `json:"id"`
	EpochID           string `json:"epoch_id"`
	RootPath          string `json:"root_path"`
	RepositoryKey     string `json:"repository_key"`
	Name              string `json:"name"`
	CreatedAt         string `json:"created_at"`
	EventHeadSequence int64  `json:"event_head_sequence"`
	EventHeadHash     string `json:"event_head_hash"`
}

// Worktree is one registered checkout of a workspace's repository.
type Worktree struct {
	ID               string  `json:"id"`
	WorkspaceID      string  `json:"workspace_id"`
	RootPath         string  `json:"root_path"`
	RepositoryKey    string  `json:"repository_key"`
	GitCommonDirHash *string `json:"git_common_dir_hash"`
	Branch           *string `json:"branch"`
	HeadSHA          *string `json:"head_sha"`
	Dirty            *bool   `json:"dirty"`
	RegisteredAt     string  `json:"registered_at"`
	LastSeenAt       string  `json:"last_seen_at"`
	// Fingerprint is compared but never rendered.
	Fingerprint string `json:"-"`
}
