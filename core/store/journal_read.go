package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// JournalReader reads the event journal inside one read transaction, so
// every call sees the same snapshot. It never takes the write lock; other
// processes keep appending while it reads. It is valid only inside the
// function given to ReadJournal.
type JournalReader struct {
	tx Tx
}

// ReadJournal runs fn with a reader over one read snapshot of the database.
// It works on stores opened read-only and on unmigrated layouts whose
// events table has no session_id column.
func (s *Store) ReadJournal(ctx context.Context, fn func(r *JournalReader) error) error {
	return s.engine().Read(ctx, func(tx Tx) error { return fn(&JournalReader{tx: tx}) })
}

// Heads returns every workspace's journal head, in workspace id order.
func (r *JournalReader) Heads(ctx context.Context) ([]JournalHead, error) {
	return r.tx.Heads(ctx)
}

// EventAnchor returns the epoch and hash of the event at sequence in a
// workspace's journal; ok is false when there is no such event.
func (r *JournalReader) EventAnchor(ctx context.Context, workspaceID string, sequence int64) (journal.Anchor, bool, error) {
	e, found, err := eventAt(ctx, r.tx, workspaceID, sequence)
	return journal.Anchor{EpochID: e.EpochID, Sequence: sequence, Hash: e.Hash}, found, err
}

// Events calls fn for each event of the workspace with a sequence above
// after, in sequence order. The event passed to fn is reused between calls:
// fn must copy what it keeps.
func (r *JournalReader) Events(ctx context.Context, workspaceID string, after int64, fn func(e *journal.Event) error) error {
	return r.tx.EachEventAfter(ctx, workspaceID, after, fn)
}
