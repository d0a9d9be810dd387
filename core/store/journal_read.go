package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/sqlite"
)

// JournalHead is one workspace's journal position (engine.Head: the
// workspace and the anchor of its newest event).
type JournalHead = engine.Head

// JournalReader reads the event journal inside one read transaction, so
// every call sees the same snapshot. It never takes the write lock; other
// processes keep appending while it reads. It is valid only inside the
// function given to ReadJournal.
type JournalReader struct {
	tx         *sql.Tx
	hasSession bool
}

// ReadJournal runs fn with a reader over one read snapshot of the database.
// It works on stores opened read-only and on unmigrated layouts whose
// events table has no session_id column.
func (s *Store) ReadJournal(ctx context.Context, fn func(r *JournalReader) error) error {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin journal read: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only snapshot; nothing to keep
	hasSession, err := sqlite.ColumnExists(ctx, tx, "events", "session_id")
	if err != nil {
		return err
	}
	return fn(&JournalReader{tx: tx, hasSession: hasSession})
}

// Heads returns every workspace's journal head, in workspace id order.
func (r *JournalReader) Heads(ctx context.Context) ([]JournalHead, error) {
	rows, err := r.tx.QueryContext(ctx, "SELECT id, epoch_id, event_head_sequence, event_head_hash FROM workspaces ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("read journal heads: %w", err)
	}
	defer rows.Close()
	var out []JournalHead
	for rows.Next() {
		var h JournalHead
		if err := rows.Scan(&h.WorkspaceID, &h.EpochID, &h.Sequence, &h.Hash); err != nil {
			return nil, fmt.Errorf("read journal head: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// EventAnchor returns the epoch and hash of the event at sequence in a
// workspace's journal; ok is false when there is no such event.
func (r *JournalReader) EventAnchor(ctx context.Context, workspaceID string, sequence int64) (journal.Anchor, bool, error) {
	a := journal.Anchor{Sequence: sequence}
	err := r.tx.QueryRowContext(ctx, "SELECT epoch_id, hash FROM events WHERE workspace_id = ? AND sequence = ?",
		workspaceID, sequence).Scan(&a.EpochID, &a.Hash)
	if err == sql.ErrNoRows {
		return a, false, nil
	}
	if err != nil {
		return a, false, fmt.Errorf("read event %d: %w", sequence, err)
	}
	return a, true, nil
}

// Events calls fn for each event of the workspace with a sequence above
// after, in sequence order. The event passed to fn is reused between calls:
// fn must copy what it keeps.
func (r *JournalReader) Events(ctx context.Context, workspaceID string, after int64, fn func(e *journal.Event) error) error {
	session := "session_id"
	if !r.hasSession {
		session = "NULL"
	}
	rows, err := r.tx.QueryContext(ctx, "SELECT workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor, occurred_at, "+
		"payload_json, prev_hash, hash, "+session+" FROM events WHERE workspace_id = ? AND sequence > ? ORDER BY sequence", workspaceID, after)
	if err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	defer rows.Close()
	var e journal.Event
	for rows.Next() {
		if err := sqlite.ScanEvent(rows, &e); err != nil {
			return err
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	return nil
}
