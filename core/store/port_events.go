package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// Events are the reads of each workspace's journal: pages after a
// position, pages before one, single events and every workspace's head.
// Every event comes back exactly as appended: PayloadJSON byte for byte,
// SessionID nil when the event was stored without one (protocol 0.1, or a
// layout predating the column).
type Events interface {
	// EventsAfter returns at most limit events of a workspace whose
	// sequence is above after, in ascending sequence order; an empty page
	// (after at or past the head, or no such workspace) is empty, never
	// nil.
	EventsAfter(ctx context.Context, workspaceID string, after int64, limit int) ([]journal.Event, error)
	// EachEventAfter calls fn for every event of a workspace whose
	// sequence is above after, in ascending sequence order, and stops at
	// fn's first error, which it returns. The event passed to fn is reused
	// between calls: fn copies what it keeps. It also reads layouts whose
	// events carry no session column.
	EachEventAfter(ctx context.Context, workspaceID string, after int64, fn func(e *journal.Event) error) error
	// EventsBefore returns at most limit events of a workspace, newest
	// first: only those whose sequence is below before when before > 0,
	// and only those of type eventType when it is not empty; never nil.
	EventsBefore(ctx context.Context, workspaceID string, before int64, eventType string, limit int) ([]journal.Event, error)
	// EventsOfTypes returns at most limit events of a workspace whose
	// sequence is above after and whose type is one of types (not empty),
	// in ascending sequence order; never nil.
	EventsOfTypes(ctx context.Context, workspaceID string, after int64, types []string, limit int) ([]journal.Event, error)
	// EventTypes lists the distinct types of a workspace's events whose
	// sequence is above after, each once, in byte order; never nil.
	EventTypes(ctx context.Context, workspaceID string, after int64) ([]string, error)
	// EventAnchor returns the epoch and stored hash of the event at
	// sequence; found is false when the workspace's journal holds no
	// event there.
	EventAnchor(ctx context.Context, workspaceID string, sequence int64) (a journal.Anchor, found bool, err error)
	// Heads returns every workspace's journal head, in workspace id order
	// (byte order); never nil.
	Heads(ctx context.Context) ([]JournalHead, error)
}
