package search

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// indexed is how far the sidecar has indexed one workspace's journal.
type indexed struct {
	ws int64
	journal.Anchor
}

// catchUp brings the index level with the journal of workspaceID (all
// workspaces when empty). An index already level costs a read of the
// sidecar and of the journal heads, and waits for nobody; otherwise the
// catch-up waits for any other one in this process to finish.
func (ix *Index) catchUp(ctx context.Context, db *sql.DB, workspaceID string) (int, error) {
	fresh, err := ix.upToDate(ctx, db, workspaceID)
	if err != nil || fresh {
		return 0, err
	}
	ix.write.Lock()
	defer ix.write.Unlock()
	return ix.catchUpLocked(ctx, db, workspaceID)
}

// catchUpLocked is catchUp for a caller holding ix.write. The main
// database is only read, in one read snapshot; the sidecar is written in
// one transaction, so an interrupted catch-up leaves the previous index
// intact.
func (ix *Index) catchUpLocked(ctx context.Context, db *sql.DB, workspaceID string) (int, error) {
	fresh, err := ix.upToDate(ctx, db, workspaceID)
	if err != nil || fresh {
		return 0, err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("lock search index: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // committed below on success
	w, err := newWriter(ctx, tx)
	if err != nil {
		return 0, err
	}
	defer w.close()
	err = ix.store.ReadJournal(ctx, func(r *store.JournalReader) error {
		heads, err := r.Heads(ctx)
		if err != nil {
			return err
		}
		known, err := readIndexed(ctx, tx)
		if err != nil {
			return err
		}
		present := map[string]bool{}
		for _, h := range heads {
			present[h.WorkspaceID] = true
			if workspaceID != "" && h.WorkspaceID != workspaceID {
				continue
			}
			if err := w.workspace(ctx, r, h, known[h.WorkspaceID]); err != nil {
				return err
			}
		}
		if workspaceID == "" {
			for id, at := range known {
				if !present[id] {
					if err := w.forget(ctx, at.ws, true); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("save search index: %w", err)
	}
	return w.events, nil
}

// upToDate reports, without locking the sidecar, whether every head the
// journal shows is exactly what the index recorded. The hash chain makes
// an equal head hash mean an equal journal.
func (ix *Index) upToDate(ctx context.Context, db *sql.DB, workspaceID string) (bool, error) {
	known, err := readIndexed(ctx, db)
	if err != nil {
		return false, err
	}
	fresh := true
	err = ix.store.ReadJournal(ctx, func(r *store.JournalReader) error {
		heads, err := r.Heads(ctx)
		if err != nil {
			return err
		}
		seen := 0
		for _, h := range heads {
			if workspaceID != "" && h.WorkspaceID != workspaceID {
				continue
			}
			seen++
			at, ok := known[h.WorkspaceID]
			if !ok || at.Anchor != h.Anchor {
				fresh = false
			}
		}
		if workspaceID == "" && seen != len(known) {
			fresh = false
		}
		return nil
	})
	return fresh, err
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func readIndexed(ctx context.Context, q queryer) (map[string]indexed, error) {
	rows, err := q.QueryContext(ctx, "SELECT ws, workspace_id, epoch_id, sequence, hash FROM workspaces")
	if err != nil {
		return nil, fmt.Errorf("read search index progress: %w", err)
	}
	defer rows.Close()
	out := map[string]indexed{}
	for rows.Next() {
		var at indexed
		var id string
		if err := rows.Scan(&at.ws, &id, &at.EpochID, &at.Sequence, &at.Hash); err != nil {
			return nil, fmt.Errorf("read search index progress: %w", err)
		}
		out[id] = at
	}
	return out, rows.Err()
}

// writer adds documents inside one sidecar transaction.
type writer struct {
	tx              *sql.Tx
	doc, text       *sql.Stmt
	events, rebuilt int
}

func newWriter(ctx context.Context, tx *sql.Tx) (*writer, error) {
	w := &writer{tx: tx}
	var err error
	if w.doc, err = tx.PrepareContext(ctx, `INSERT INTO docs (ws, sequence, kind, event_type, ref_id, task_id, actor, session_id, occurred_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`); err != nil {
		return nil, fmt.Errorf("prepare search index: %w", err)
	}
	if w.text, err = tx.PrepareContext(ctx, "INSERT INTO text (rowid, title, body) VALUES (?, ?, ?)"); err != nil {
		w.doc.Close()
		return nil, fmt.Errorf("prepare search index: %w", err)
	}
	return w, nil
}

func (w *writer) close() {
	w.doc.Close()
	w.text.Close()
}

// workspace indexes one journal from where the index left it, first
// dropping what the index holds when that position is no longer in the
// journal (a rewind, or a sidecar made from another database).
func (w *writer) workspace(ctx context.Context, r *store.JournalReader, h store.JournalHead, at indexed) error {
	after := int64(0)
	if at.ws != 0 {
		valid, err := stillInJournal(ctx, r, at, h)
		if err != nil {
			return err
		}
		if valid {
			after = at.Sequence
		} else if err := w.forget(ctx, at.ws, false); err != nil {
			return err
		}
	} else {
		res, err := w.tx.ExecContext(ctx, "INSERT INTO workspaces (workspace_id, epoch_id, sequence, hash) VALUES (?, ?, 0, ?)",
			h.WorkspaceID, h.EpochID, journal.GenesisHash)
		if err != nil {
			return fmt.Errorf("record search index workspace: %w", err)
		}
		if at.ws, err = res.LastInsertId(); err != nil {
			return fmt.Errorf("record search index workspace: %w", err)
		}
	}
	err := r.Events(ctx, h.WorkspaceID, after, func(e *journal.Event) error { return w.add(ctx, at.ws, e) })
	if err != nil {
		return err
	}
	_, err = w.tx.ExecContext(ctx, "UPDATE workspaces SET epoch_id = ?, sequence = ?, hash = ? WHERE ws = ?",
		h.EpochID, h.Sequence, h.Hash, at.ws)
	if err != nil {
		return fmt.Errorf("record search index progress: %w", err)
	}
	return nil
}

// stillInJournal reports whether the indexed position is an event of the
// journal now: same sequence, epoch and hash, at or below the head.
func stillInJournal(ctx context.Context, r *store.JournalReader, at indexed, h store.JournalHead) (bool, error) {
	if at.Sequence > h.Sequence {
		return false, nil
	}
	if at.Sequence == 0 {
		return at.Hash == journal.GenesisHash, nil
	}
	now, ok, err := r.EventAnchor(ctx, h.WorkspaceID, at.Sequence)
	if err != nil || !ok {
		return false, err
	}
	return now == at.Anchor, nil
}

// forget drops every document of one workspace; with workspace set it
// drops the workspace too.
func (w *writer) forget(ctx context.Context, ws int64, workspace bool) error {
	w.rebuilt++
	stmts := []string{
		"DELETE FROM text WHERE rowid IN (SELECT id FROM docs WHERE ws = ?)",
		"DELETE FROM docs WHERE ws = ?",
		"UPDATE workspaces SET sequence = 0, hash = '" + journal.GenesisHash + "' WHERE ws = ?",
	}
	if workspace {
		stmts[2] = "DELETE FROM workspaces WHERE ws = ?"
	}
	for _, s := range stmts {
		if _, err := w.tx.ExecContext(ctx, s, ws); err != nil {
			return fmt.Errorf("drop stale search documents: %w", err)
		}
	}
	return nil
}

// add indexes one event; events without searchable text add nothing.
func (w *writer) add(ctx context.Context, ws int64, e *journal.Event) error {
	w.events++
	d := extract(e)
	if !d.hasSearchable {
		return nil
	}
	res, err := w.doc.ExecContext(ctx, ws, e.Sequence, d.kind, e.Type, d.refID, d.taskID, e.Actor, e.SessionID, e.OccurredAt)
	if err != nil {
		return fmt.Errorf("index event %d: %w", e.Sequence, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return fmt.Errorf("index event %d: %w", e.Sequence, err)
	}
	if _, err := w.text.ExecContext(ctx, id, d.title, d.body); err != nil {
		return fmt.Errorf("index event %d: %w", e.Sequence, err)
	}
	return nil
}
