package store

import "context"

// Handoffs are offers to pass a task's lease on: rows the rules read by
// id or by workspace, and write whole. Which offers are live at a time,
// the order a sweep expires them in, the board's order and which offers
// concern a viewer are the rules' (handoff_rows.go), decided over the
// rows these return.
type Handoffs interface {
	// Handoff returns one offer by id.
	Handoff(ctx context.Context, id string) (h Handoff, found bool, err error)
	// Handoffs lists the offers of a workspace that match every field of
	// filter that is not empty, in the order they were inserted; never
	// nil. A filter naming to_actor (and status) reads through the
	// handoffs_target_idx index the way its columns lead it.
	Handoffs(ctx context.Context, workspaceID string, filter HandoffFilter) ([]Handoff, error)
	// InsertHandoff stores a new offer, every column as h holds it.
	InsertHandoff(ctx context.Context, h Handoff) error
	// UpdateHandoff stores after over the row before was read as,
	// writing only the columns in which the two differ (no statement at
	// all when none does). An offer changes only its status and
	// resolved_at; its other columns are not compared.
	UpdateHandoff(ctx context.Context, before, after Handoff) error
}

// HandoffFilter narrows a handoff listing to the offers whose columns
// equal each field that is not empty; the zero value keeps every offer of
// the workspace.
type HandoffFilter struct {
	TaskID        string        // task_id
	Status        HandoffStatus // status
	ToActor       string        // to_actor
	ToSessionID   string        // to_session_id
	FromActor     string        // from_actor
	FromSessionID string        // from_session_id
}
