package store

import (
	"encoding/json"

	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/journal"
)

// Head is a workspace's journal position: the anchor of its newest event
// (sequence 0 and journal.GenesisHash for an empty journal). It is the one
// type for "where a workspace's journal stands"; a session's cursor and a
// client's anchor are the journal.Anchor inside it.
type JournalHead struct {
	WorkspaceID string
	journal.Anchor
}

// NewWorkspace is a workspace to create.
type NewWorkspace struct {
	ID            string
	EpochID       string
	RootPath      string
	Name          string
	RepositoryKey string
	CreatedAt     string
}

// WorktreeFacts is what a worktree row records: its identity and the Git
// state last observed there.
type WorktreeFacts struct {
	gitstate.Identity
	Branch  *string
	HeadSHA *string
	Dirty   *bool
}

// FactsOf combines an identity with the checkpoint observed in it.
func FactsOf(id gitstate.Identity, cp gitstate.Checkpoint) WorktreeFacts {
	return WorktreeFacts{Identity: id, Branch: cp.Branch, HeadSHA: cp.HeadSHA, Dirty: cp.Dirty}
}

// ReceiptScope names one idempotency receipt: receipts are unique per
// (workspace, actor, key). Actor is a legacy label, or "session:<id>" for
// a credential-bound session, so one session's keys never collide with
// another's or with a label's.
type ReceiptScope struct {
	WorkspaceID string
	Actor       string
	Key         string
}

// Receipt is a stored idempotency record: the operation and the hash of
// its canonical request, and the response bytes in the stored form.
type Receipt struct {
	Operation   string
	RequestHash string
	Response    []byte
}

// Session is a credential-bound coordination session. TokenHash is the
// SHA-256 of its bearer token; it is never rendered (json:"-") and never
// leaves the rules.
type CoordinationSession struct {
	ID                     string         `json:"id"`
	WorkspaceID            string         `json:"workspace_id"`
	WorktreeID             string         `json:"worktree_id"`
	Actor                  string         `json:"actor"`
	Role                   *string        `json:"role"`
	ParentSessionID        *string        `json:"parent_session_id"`
	Status                 SessionStatus  `json:"status"`
	Generation             int64          `json:"generation"`
	JoinedAt               string         `json:"joined_at"`
	LastSeenAt             string         `json:"last_seen_at"`
	EndedAt                *string        `json:"ended_at"`
	Cursor                 journal.Anchor `json:"cursor"`
	CursorVersion          int64          `json:"cursor_version"`
	ResetGeneration        int64          `json:"reset_generation"`
	CursorRecoveryRequired bool           `json:"cursor_recovery_required"`

	TokenHash string `json:"-"`
}

// Task is one unit of coordinated work. Checkpoints are emitted as stored
// (canonical JSON, keys in order); EffectiveStatus is computed at read time by the rules; an engine leaves it empty.
type Task struct {
	ID                  string           `json:"id"`
	WorkspaceID         string           `json:"workspace_id"`
	Title               string           `json:"title"`
	Description         *string          `json:"description"`
	Status              TaskStatus       `json:"status"`
	EffectiveStatus     TaskStatus       `json:"effective_status"`
	Dependencies        []string         `json:"dependencies"`
	PathScopes          []string         `json:"path_scopes"`
	WorkMode            string           `json:"work_mode"`
	CompletionPolicy    CompletionPolicy `json:"completion_policy"`
	ReviewStatus        ReviewStatus     `json:"review_status"`
	ExpectedBaseSHA     *string          `json:"expected_base_sha"`
	BaseCheckpoint      json.RawMessage  `json:"base_checkpoint"`
	ResultCheckpoint    json.RawMessage  `json:"result_checkpoint"`
	CompletionReportID  *string          `json:"completion_report_id"`
	Assignee            *string          `json:"assignee"`
	AssigneeSessionID   *string          `json:"assignee_session_id"`
	ClaimWorktreeID     *string          `json:"claim_worktree_id"`
	LeaseID             *string          `json:"lease_id"`
	LeaseExpiresAt      *string          `json:"lease_expires_at"`
	Blocker             *string          `json:"blocker"`
	LatestProgress      *string          `json:"latest_progress"`
	ReportedBy          *string          `json:"reported_by"`
	ReportedBySessionID *string          `json:"reported_by_session_id"`
	ReportedAt          *string          `json:"reported_at"`
	AcceptedBy          *string          `json:"accepted_by"`
	AcceptedBySessionID *string          `json:"accepted_by_session_id"`
	AcceptedAt          *string          `json:"accepted_at"`
	Version             int64            `json:"version"`
	CreatedAt           string           `json:"created_at"`
	UpdatedAt           string           `json:"updated_at"`
	CompletedAt         *string          `json:"completed_at"`

	// CoordinationMode and ReviewGeneration are kept but never rendered.
	CoordinationMode string `json:"-"`
	ReviewGeneration int64  `json:"-"`
}

// TaskWithArtifacts is a task as collab_task_get returns it.
type TaskWithArtifacts struct {
	Task
	Artifacts []Artifact `json:"artifacts"`
}

// Artifact is a reference attached to a task; the bytes stay elsewhere.
type Artifact struct {
	ID                  string  `json:"id"`
	TaskID              string  `json:"task_id"`
	Kind                string  `json:"kind"`
	URI                 string  `json:"uri"`
	SHA256              *string `json:"sha256"`
	MediaType           *string `json:"media_type"`
	Label               *string `json:"label"`
	AttachedBy          string  `json:"attached_by"`
	AttachedAt          string  `json:"attached_at"`
	AttachedBySessionID *string `json:"attached_by_session_id"`
}

// NewSession is a credential-bound session to create. Its cursor starts at
// Cursor (the journal's genesis anchor).
type NewSession struct {
	ID              string
	WorkspaceID     string
	WorktreeID      string
	Actor           string
	Role            *string
	ParentSessionID *string
	TokenHash       string
	JoinedAt        string
	Cursor          journal.Anchor
}

// CursorReset is one audited move of a session's cursor.
type CursorReset struct {
	ID         string
	SessionID  string
	From, To   journal.Anchor
	Reason     string
	Generation int64
	CreatedAt  string
}

// Handoff is an offer to pass a task's lease to another actor or session.
type Handoff struct {
	ID            string        `json:"id"`
	WorkspaceID   string        `json:"workspace_id"`
	TaskID        string        `json:"task_id"`
	FromActor     string        `json:"from_actor"`
	ToActor       string        `json:"to_actor"`
	Summary       string        `json:"summary"`
	Status        HandoffStatus `json:"status"`
	OfferedAt     string        `json:"offered_at"`
	ExpiresAt     string        `json:"expires_at"`
	ResolvedAt    *string       `json:"resolved_at"`
	FromSessionID *string       `json:"from_session_id"`
	ToSessionID   *string       `json:"to_session_id"`
}
