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
// means "any".
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
	// NewestFirst orders by descending event sequence, so that Limit
	// keeps the newest reports rather than the oldest.
	NewestFirst bool
}

// ReportLink is one report pointing at another through its relation.
type ReportLink struct {
	ID             string
	TargetReportID string
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
// decide what a relation means; an engine stores and finds them.
type Reports interface {
	// InsertReport stores r. EvidenceRefs are kept in the order given (nil
	// is stored as an empty list) and come back in that order.
	InsertReport(ctx context.Context, r Report) error
	// Report returns one report by id, whatever its workspace; found is
	// false when no report has that id. EvidenceRefs is never nil.
	Report(ctx context.Context, id string) (r Report, found bool, err error)
	// ReportsAfter lists a workspace's reports that f keeps, in event
	// sequence order (newest first when f.NewestFirst), the first f.Limit
	// of them in that order when f.Limit is set; never
	// nil, and no report's EvidenceRefs is nil.
	ReportsAfter(ctx context.Context, workspaceID string, f ReportFilter) ([]Report, error)
	// ObsoletingLinks lists the workspace's reports whose relation is
	// withdraws, corrects or supersedes and that name a target, newest
	// first: by event sequence, then id, both descending. Never nil.
	ObsoletingLinks(ctx context.Context, workspaceID string) ([]ReportLink, error)
	// ReportsTargeting lists the ids of the workspace's reports that target
	// reportID with one of relations, by (event sequence, id); never nil,
	// and empty when relations is.
	ReportsTargeting(ctx context.Context, workspaceID, reportID string, relations ...string) ([]string, error)
}

// Decisions are the legacy-mode decision records.
type Decisions interface {
	// InsertDecision stores d.
	InsertDecision(ctx context.Context, d Decision) error
	// RecentDecisions lists a workspace's newest decisions, at most limit
	// of them, by recorded time then id, both descending; never nil.
	RecentDecisions(ctx context.Context, workspaceID string, limit int) ([]Decision, error)
}

// Evidence answers whether what a reference names is recorded in a
// workspace. Each lookup is confined to the workspace: a record of the
// same id in another workspace is not found.
type Evidence interface {
	// ArtifactRecorded reports whether the workspace has an artifact of
	// that id.
	ArtifactRecorded(ctx context.Context, workspaceID, id string) (bool, error)
	// EventRecorded reports whether the workspace's journal has an event
	// of that id.
	EventRecorded(ctx context.Context, workspaceID, id string) (bool, error)
	// ReportRecorded reports whether the workspace has a report of that id.
	ReportRecorded(ctx context.Context, workspaceID, id string) (bool, error)
	// TaskRecorded reports whether the workspace has a task of that id.
	TaskRecorded(ctx context.Context, workspaceID, id string) (bool, error)
	// RecordedCheckpoints lists the base and result checkpoints stored on
	// the workspace's tasks, as stored, in no particular order (a task's
	// base before its result); absent checkpoints are left out. Never nil.
	RecordedCheckpoints(ctx context.Context, workspaceID string) ([]json.RawMessage, error)
}
