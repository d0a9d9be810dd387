package store

import (
	"context"
	"encoding/json"
)

// TaskWrites are the changes the rules make to task rows outside leases.
//
// Every change but InsertTask increments the task's version by exactly one
// and sets its updated_at to now, and touches only the columns it names.
// None of them compares versions: the rules read the task, check the
// version the caller expects and decide, all inside one write transaction,
// and Write's serialisation keeps any other writer from changing the task
// in between (the loser of a race reads the winner's version and refuses).
// A change addressed to a task that does not exist changes nothing.
type TaskWrites interface {
	// TaskExists reports whether the workspace has a task with this id.
	TaskExists(ctx context.Context, workspaceID, taskID string) (bool, error)
	// InsertTask stores a new open task at version 1, with created_at and
	// updated_at both t.CreatedAt. A task of the legacy plane
	// (t.SessionPlane false) keeps the columns' defaults for the
	// session-plane fields.
	InsertTask(ctx context.Context, t NewTask) error
	// RecordProgress sets the task's latest progress note.
	RecordProgress(ctx context.Context, workspaceID, taskID, message, now string) error
	// BlockTask sets status blocked with the blocker and clears the
	// assignee and the lease; clearSession also clears the assignee
	// session and the claim worktree.
	BlockTask(ctx context.Context, workspaceID, taskID, blocker string, clearSession bool, now string) error
	// UnblockTask sets status open and clears the blocker; resetReview
	// also sets review_status not_required.
	UnblockTask(ctx context.Context, workspaceID, taskID string, resetReview bool, now string) error
	// CompleteTask records a legacy completion: status completed, the
	// summary as latest progress, completed_at now, assignee, lease and
	// blocker cleared. Session and review columns are untouched.
	CompleteTask(ctx context.Context, workspaceID, taskID, summary, now string) error
	// ReportCompletion records a session's completion: status completed
	// with c's review status, review_generation incremented, the result
	// checkpoint stored byte for byte, the reporter and report recorded,
	// any earlier acceptance cleared, and the assignee, session, worktree,
	// lease and blocker cleared.
	ReportCompletion(ctx context.Context, workspaceID, taskID string, c Completion, now string) error
	// AcceptCompletion sets review_status accepted and records who
	// accepted it at now.
	AcceptCompletion(ctx context.Context, workspaceID, taskID, actor, sessionID, now string) error
	// RequestChanges reopens a reported task: status open, review_status
	// changes_requested, acceptance and completed_at cleared.
	RequestChanges(ctx context.Context, workspaceID, taskID, now string) error
	// SettleRecovery sets the status (open or blocked) and blocker of a
	// task whose expired lease was just recovered without a takeover.
	SettleRecovery(ctx context.Context, workspaceID, taskID string, status TaskStatus, blocker *string, now string) error
	// BumpTask only increments the version and sets updated_at: a change
	// stored elsewhere (an artifact, a handoff offer or answer) that
	// readers of the task must notice.
	BumpTask(ctx context.Context, workspaceID, taskID, now string) error
}

// Leases are the changes to who holds a task. The same rules as for
// TaskWrites apply: each increments the version by one and sets
// updated_at, and none compares versions.
type Leases interface {
	// ClaimTask gives l to the task: status claimed, blocker cleared. A
	// legacy lease (l.SessionID nil) sets only the assignee and the lease
	// and leaves the session columns as they are; a session lease also
	// sets the session, the claim worktree and the base checkpoint (byte
	// for byte), moves the task to the session plane and clears the review
	// state of any earlier completion (review_status not_required, result
	// checkpoint, completion report, reporter and acceptance cleared,
	// completed_at cleared).
	ClaimTask(ctx context.Context, workspaceID, taskID string, l Lease, now string) error
	// TakeOverTask gives a session lease to a task whose expired lease was
	// just recovered: status claimed, session, worktree, lease and base
	// checkpoint set, blocker cleared; the review state is untouched.
	TakeOverTask(ctx context.Context, workspaceID, taskID string, l Lease, now string) error
	// TransferLease moves the task's lease to the recipient of an accepted
	// handoff: the assignee and the lease, and for a session lease also
	// the session, the claim worktree and the base checkpoint. The status
	// is untouched.
	TransferLease(ctx context.Context, workspaceID, taskID string, l Lease, now string) error
	// RenewLease sets the lease's expiry.
	RenewLease(ctx context.Context, workspaceID, taskID, expiresAt, now string) error
	// ReleaseLease reopens the task: status open, assignee and lease
	// cleared; clearSession also clears the assignee session and the claim
	// worktree (a legacy writer never touches them).
	ReleaseLease(ctx context.Context, workspaceID, taskID string, clearSession bool, now string) error
	// ExpireSessionLease records that the clock ended a session lease:
	// status open, assignee, session, claim worktree and lease cleared.
	ExpireSessionLease(ctx context.Context, workspaceID, taskID, now string) error
}

// TaskRecords are the rows recorded beside a task: artifacts, recoveries
// and reviews. Each is stored once, as given; a second insert of the same
// id fails.
type TaskRecords interface {
	// InsertArtifact stores a reference attached to a task of the
	// workspace; a.TaskID names the task.
	InsertArtifact(ctx context.Context, workspaceID string, a Artifact) error
	// InsertRecovery stores the audit row of one recovery.
	InsertRecovery(ctx context.Context, r LeaseRecovery) error
	// InsertReview stores one review decision.
	InsertReview(ctx context.Context, r Review) error
}

// PathClaims find the live claims on paths: the read the claim rule uses
// to refuse a task whose paths overlap work reserved elsewhere in the same
// repository, across all of its worktrees' workspaces.
type PathClaims interface {
	// ClaimedPaths lists the tasks of every workspace of the repository
	// that reserve their path scopes at now: a task of any work mode but
	// read_only that is claimed with a lease expiring after now, or
	// claimed by a session (expired or not, until it is recovered), or
	// completed under the accepted policy and waiting for review. The
	// order is the order conflicts are reported in: by workspace in
	// creation (insertion) order, then status (claimed before completed),
	// then lease expiry (none first), then task insertion order. Never nil.
	ClaimedPaths(ctx context.Context, repositoryKey, now string) ([]PathClaim, error)
}

// NewTask is a task to create.
type NewTask struct {
	ID           string
	WorkspaceID  string
	Title        string
	Description  *string
	Dependencies []string
	PathScopes   []string
	CreatedAt    string
	// SessionPlane marks a task a session creates: it records the
	// coordination mode session_v2, review_status not_required, review
	// generation 0 and the three fields below.
	SessionPlane     bool
	WorkMode         string
	CompletionPolicy CompletionPolicy
	ExpectedBaseSHA  *string
}

// Lease is a lease the rules grant: to a legacy actor label (SessionID
// nil) or to a session working in a worktree from a base checkpoint.
type Lease struct {
	ID        string
	ExpiresAt string
	Assignee  string
	// SessionID, WorktreeID and BaseCheckpoint (canonical JSON, stored
	// byte for byte) are set together, for a session lease only.
	SessionID      *string
	WorktreeID     *string
	BaseCheckpoint json.RawMessage
}

// Completion is a session's report that a task is done.
type Completion struct {
	ReviewStatus        ReviewStatus
	Summary             string
	ResultCheckpoint    json.RawMessage
	ReportID            string
	ReportedBy          string
	ReportedBySessionID string
}

// Recovery is the audit row of one recovery of an expired session lease.
type LeaseRecovery struct {
	ID                   string
	WorkspaceID          string
	TaskID               string
	PriorLeaseID         string
	PriorSessionID       *string
	RecoveredBySessionID string
	Action               string
	Note                 string
	// PriorCheckpoint is the lost lease's base checkpoint, stored byte for
	// byte; nil stores none.
	PriorCheckpoint json.RawMessage
	NewLeaseID      *string
	RecoveredAt     string
	EventSequence   int64
}

// Review is one review decision on a reported completion.
type Review struct {
	ID                string
	WorkspaceID       string
	TaskID            string
	ReviewGeneration  int64
	Outcome           string
	Summary           string
	ReviewerActor     string
	ReviewerSessionID string
	CreatedAt         string
	EventSequence     int64
}

// PathClaim is a task that reserves its path scopes: only what a
// conflict report needs.
type PathClaim struct {
	TaskID            string
	WorkspaceID       string
	Assignee          *string
	AssigneeSessionID *string
	LeaseExpiresAt    *string
	PathScopes        []string
}
