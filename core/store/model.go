package store

import (
	"encoding/json"

	"github.com/agenttool/collab/core/store/engine"
)

// The types below are the public shapes of the collab tools. Field order is
// the order in which @agenttool/collab emits keys, so rendered results read
// the same in either implementation.

// Workspace is one repository's shared journal.
type Workspace = engine.Workspace

// Worktree is one registered checkout of a workspace's repository.
type Worktree = engine.Worktree

// Task is one unit of coordinated work. Checkpoints are emitted as stored
// (canonical JSON, keys in order); EffectiveStatus is computed at read time.
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

	coordinationMode string
	reviewGeneration int64
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

// Decision is a legacy-mode decision record.
type Decision struct {
	ID          string  `json:"id"`
	WorkspaceID string  `json:"workspace_id"`
	Topic       string  `json:"topic"`
	Decision    string  `json:"decision"`
	Rationale   *string `json:"rationale"`
	RecordedBy  string  `json:"recorded_by"`
	RecordedAt  string  `json:"recorded_at"`
}

// CoordinationSession is a credential-bound session as tools show it; the
// token hash never leaves the store (it is not rendered).
type CoordinationSession = engine.Session

// Report is a structured, append-only statement by a session.
type Report struct {
	ID              string   `json:"id"`
	WorkspaceID     string   `json:"workspace_id"`
	TaskID          *string  `json:"task_id"`
	FromSessionID   *string  `json:"from_session_id"`
	FromActor       string   `json:"from_actor"`
	ToSessionID     *string  `json:"to_session_id"`
	Kind            string   `json:"kind"`
	Body            string   `json:"body"`
	EvidenceRefs    []string `json:"evidence_refs"`
	Confidence      string   `json:"confidence"`
	ConfidenceBasis *string  `json:"confidence_basis"`
	Limits          *string  `json:"limits"`
	Relation        string   `json:"relation"`
	TargetReportID  *string  `json:"target_report_id"`
	AuthorityScope  *string  `json:"authority_scope"`
	AuthorityBasis  *string  `json:"authority_basis"`
	CreatedAt       string   `json:"created_at"`
	EventSequence   int64    `json:"event_sequence"`
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
