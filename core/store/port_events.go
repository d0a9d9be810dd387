package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// Events are the reads of each workspace's journal: pages of a range of
// sequences, the whole journal after a position as a stream, the types in
// use and every workspace's head. Every event comes back exactly as
// appended: PayloadJSON byte for byte, SessionID nil when the event was
// stored without one (protocol 0.1, or a layout predating the column).
type Events interface {
	// Events returns at most r.Limit events of a workspace whose
	// sequence is above r.After, below r.Before when that is above zero,
	// and whose type is one of r.Types when that is not empty, in
	// ascending sequence order, or descending when r.Newest; an empty
	// page (nothing in range, or no such workspace) is empty, never nil.
	// Engines read it along the events primary key (workspace_id,
	// sequence).
	Events(ctx context.Context, workspaceID string, r EventRange) ([]journal.Event, error)
	// EachEventAfter calls fn for every event of a workspace whose
	// sequence is above after, in ascending sequence order, and stops at
	// fn's first error, which it returns. The event passed to fn is reused
	// between calls: fn copies what it keeps. It also reads layouts whose
	// events carry no session column.
	EachEventAfter(ctx context.Context, workspaceID string, after int64, fn func(e *journal.Event) error) error
	// EventTypes lists the distinct types of a workspace's events whose
	// sequence is above after, each once, in byte order; never nil.
	EventTypes(ctx context.Context, workspaceID string, after int64) ([]string, error)
	// Heads returns every workspace's journal head, in workspace id order
	// (byte order); never nil.
	Heads(ctx context.Context) ([]JournalHead, error)
}

// EventRange selects a page of one workspace's journal for Events. Its
// zero value with a Limit is the page from genesis.
type EventRange struct {
	// After is an exclusive lower bound on sequence.
	After int64
	// Before is an exclusive upper bound on sequence; zero means none.
	Before int64
	// Types keeps only events of these types; empty keeps all.
	Types []string
	// Limit is the most events returned; a negative limit means none.
	Limit int
	// Newest returns the page newest first: the Limit events closest
	// below Before (or the head), in descending sequence order.
	Newest bool
}
