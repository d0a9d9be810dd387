package store

import (
	"context"
	"encoding/json"
)

// Report is a structured, append-only statement by a session. Field order
// is the order in which results render it.
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

// ReportFilter narrows a report listing. The zero value of each field
// means "any". A filter reads one of two ways: a window of the
// workspace's reports in event sequence order (the workspace/sequence
// index), or, when Target is set, the reports pointing at one report (the
// target index), which come in no promised order and take no window,
// limit or direction.
type ReportFilter struct {
	// After keeps reports whose event sequence is greater than After.
	After int64
	// Through keeps reports whose event sequence is at most Through; 0 is
	// no upper bound.
	Through int64
	// Limit caps the number of reports returned; 0 is no cap.
	Limit int
	// TaskID keeps the reports about one task.
	TaskID string
	// ToSessionID keeps the reports addressed to one session.
	ToSessionID string
	// RoutedTo keeps the reports addressed to nobody or to this session.
	RoutedTo string
	// Kind keeps the reports of one kind.
	Kind string
	// Relations keeps the reports whose relation is one of these; empty
	// keeps every relation.
	Relations []string
	// Target keeps the reports whose target_report_id is Target.
	Target string
	// Targeted keeps the reports that name a target, whichever it is.
	Targeted bool
	// NewestFirst orders by descending event sequence, so that Limit
	// keeps the newest reports rather than the oldest.
	NewestFirst bool
}

// Decision is a legacy-mode (actor-labelled) decision record.
type Decision struct {
	ID          string  `json:"id"`
	WorkspaceID string  `json:"workspace_id"`
	Topic       string  `json:"topic"`
	Decision    string  `json:"decision"`
	Rationale   *string `json:"rationale"`
	RecordedBy  string  `json:"recorded_by"`
	RecordedAt  string  `json:"recorded_at"`
}

// Reports are the append-only structured reports of sessions and the
// relations between them (a report may target an earlier one). The rules
// decide what a relation means and in which order relations count
// (report_relations.go); an engine stores and finds the rows.
type Reports interface {
	// InsertReport stores r. EvidenceRefs are kept in the order given (nil
	// is stored as an empty list) and come back in that order.
	InsertReport(ctx context.Context, r Report) error
	// Report returns one report by id, whatever its workspace; found is
	// false when no report has that id. EvidenceRefs is never nil.
	Report(ctx context.Context, id string) (r Report, found bool, err error)
	// Reports lists a workspace's reports that f keeps: in event sequence
	// order (newest first when f.NewestFirst), the first f.Limit of them
	// in that order when f.Limit is set; in no promised order when
	// f.Target is set. Never nil, and no report's EvidenceRefs is nil. A
	// filter that sets Target together with After, Through, Limit or
	// NewestFirst is refused.
	Reports(ctx context.Context, workspaceID string, f ReportFilter) ([]Report, error)
}

// Decisions are the legacy-mode decision records.
type Decisions interface {
	// InsertDecision stores d.
	InsertDecision(ctx context.Context, d Decision) error
	// Decisions lists a workspace's newest decisions, at most limit of
	// them, by recorded time then id, both descending; never nil.
	Decisions(ctx context.Context, workspaceID string, limit int) ([]Decision, error)
}

// RecordKind names a table whose rows evidence and references may name
// by id: what Evidence.Recorded looks in.
type RecordKind string

// The kinds of record Evidence.Recorded finds.
const (
	RecordArtifact RecordKind = "artifact"
	RecordEvent    RecordKind = "event"
	RecordReport   RecordKind = "report"
	RecordTask     RecordKind = "task"
)

// Evidence answers whether what a reference names is recorded in a
// workspace.
type Evidence interface {
	// Recorded reports whether the workspace holds a record of kind with
	// that id. The lookup is confined to the workspace: a record of the
	// same id in another workspace is not found. An unknown kind is an
	// error.
	Recorded(ctx context.Context, workspaceID string, kind RecordKind, id string) (bool, error)
	// RecordedCheckpoints lists the base and result checkpoints stored on
	// the workspace's tasks, as stored, in no particular order (a task's
	// base before its result); absent checkpoints are left out. Never nil.
	// It reads two columns of each task rather than the whole rows Tasks
	// does: a checkpoint reference is looked up by digest, so every task
	// of the workspace is read on each one.
	RecordedCheckpoints(ctx context.Context, workspaceID string) ([]json.RawMessage, error)
}
