package store

import (
	"github.com/agenttool/collab/core/store/engine"
)

// The types below are the public shapes of the collab tools. Field order is
// the order in which @agenttool/collab emits keys, so rendered results read
// the same in either implementation.

// Workspace is one repository's shared journal.
type Workspace = engine.Workspace

// Worktree is one registered checkout of a workspace's repository.
type Worktree = engine.Worktree

// Task is one unit of coordinated work.
type Task = engine.Task

// TaskWithArtifacts is a task as collab_task_get returns it.
type TaskWithArtifacts = engine.TaskWithArtifacts

// Artifact is a reference attached to a task; the bytes stay elsewhere.
type Artifact = engine.Artifact

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
type Handoff = engine.Handoff

// rowScanner is what *sql.Row and *sql.Rows offer.
type rowScanner interface{ Scan(dest ...any) error }
