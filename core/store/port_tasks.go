package store

import (
	"context"
	"encoding/json"
	"errors"
)

// TaskWrites store task rows. A task changes by one versioned write of
// the whole row: the rules read the task, decide what it becomes (the
// transitions of task_transitions.go), and hand both rows back. Write's
// serialisation keeps any other writer from changing the task in between;
// the version guard makes a write from a stale read fail instead of
// overwriting.
type TaskWrites interface {
	// InsertTask stores a new open task at version 1, with created_at and
	// updated_at both t.CreatedAt. A task of the legacy plane
	// (t.SessionPlane false) keeps the columns' defaults for the
	// session-plane fields.
	InsertTask(ctx context.Context, t NewTask) error
	// UpdateTask stores after in place of before, a row read in this
	// transaction: it sets exactly the columns whose stored values differ
	// between the two (never one that did not change: SQLite files from
	// v0.2 carry triggers on the columns an UPDATE names) and moves the
	// version from before.Version to after.Version, which must be one
	// more. The identity (workspace, id, creation time) never changes.
	// When the stored task is not at before.Version (or is gone), nothing
	// changes and the error wraps ErrStaleTask.
	UpdateTask(ctx context.Context, before, after Task) error
}

// ErrStaleTask is what UpdateTask returns when the stored task is no
// longer at the version the write was computed from.
var ErrStaleTask = errors.New("the task is not at the version the write was computed from")

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

// PathClaims are the one set read the path rules need: the candidates
// for reserving paths. Which of them reserve at a given time is decided
// once, in Go (reservesAt, reservations.go).
type PathClaims interface {
	// ReservingTasks lists the tasks of every workspace of the
	// repository that are stored as claimed, or as completed with a review
	// pending, in workspace insertion order, then task insertion order;
	// never nil. Each row carries what the path rules read and no more:
	// ID, WorkspaceID, Title, Status, PathScopes, WorkMode,
	// CompletionPolicy, ReviewStatus, Assignee, AssigneeSessionID,
	// ClaimWorktreeID, LeaseExpiresAt and CreatedAt.
	ReservingTasks(ctx context.Context, repositoryKey string) ([]Task, error)
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

// LeaseRecovery is the audit row of one recovery of an expired session lease.
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
