package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// headForUpdate reads a journal head and keeps its row locked until the
// transaction ends.
//
// The lock is FOR NO KEY UPDATE, not FOR UPDATE: a transaction that has
// already inserted a row referencing the workspace (a session, a task)
// holds FOR KEY SHARE on it through the foreign key, and two such
// transactions both asking FOR UPDATE wait for each other — a deadlock
// that, with many writers retrying, starved one writer for the whole retry
// window (16 processes starting sessions at once). FOR NO KEY UPDATE
// conflicts with itself, so appends still queue on the row, but not with
// FOR KEY SHARE; the head UPDATE (Append) changes no key column and takes
// the same lock.
//
// It reads the whole workspace row, which the transaction then knows
// (Workspace).
const headForUpdate = "SELECT " + sqltx.WorkspaceColumns + ` FROM workspaces WHERE id = ? FOR NO KEY UPDATE`

// Head reads the workspace's journal head. Inside a write transaction it
// locks the workspace row (FOR NO KEY UPDATE, see headForUpdate) until the
// transaction ends, so no other transaction appends to the journal
// meanwhile, and remembers the workspace so that a retried write can queue
// on it.
func (t *Tx) Head(ctx context.Context, workspaceID string) (store.JournalHead, bool, error) {
	if h, ok := t.heads[workspaceID]; ok {
		return h, true, nil
	}
	if !t.write {
		h, ok, err := sqltx.ReadHead(ctx, t, sqltx.HeadQuery, workspaceID)
		if ok && err == nil {
			t.remember(h)
		}
		return h, ok, err
	}
	t.touched = workspaceID
	var w store.Workspace
	err := t.QueryRowContext(ctx, headForUpdate, workspaceID).Scan(&w.ID, &w.EpochID, &w.RootPath, &w.RepositoryKey,
		&w.Name, &w.CreatedAt, &w.EventHeadSequence, &w.EventHeadHash)
	if err == sql.ErrNoRows {
		return store.JournalHead{WorkspaceID: workspaceID}, false, nil
	}
	if err != nil {
		return store.JournalHead{WorkspaceID: workspaceID}, false, fmt.Errorf("read journal head: %w", err)
	}
	t.knowWorkspace(w)
	h := store.JournalHead{WorkspaceID: workspaceID, Anchor: journal.Anchor{EpochID: w.EpochID, Sequence: w.EventHeadSequence, Hash: w.EventHeadHash}}
	t.remember(h)
	return h, true, nil
}

// Workspace reads one workspace, once per transaction. A transaction sees
// one snapshot (and a write transaction locks the rows it will change), and
// nothing but Append changes a workspace row, whose head the transaction
// keeps (heads), so a second read would return what the first did.
func (t *Tx) Workspace(ctx context.Context, id string) (store.Workspace, bool, error) {
	w, ok := t.workspaces[id]
	if !ok {
		var err error
		if w, ok, err = sqltx.FindWorkspace(ctx, t, id); !ok || err != nil {
			return w, ok, err
		}
		t.knowWorkspace(w)
	}
	if h, moved := t.heads[id]; moved {
		w.EventHeadSequence, w.EventHeadHash = h.Sequence, h.Hash
	}
	return w, true, nil
}

// knowWorkspace keeps w as the transaction's view of its row.
func (t *Tx) knowWorkspace(w store.Workspace) {
	if t.workspaces == nil {
		t.workspaces = map[string]store.Workspace{}
	}
	t.workspaces[w.ID] = w
}

// remember keeps h as the transaction's view of its workspace's head.
func (t *Tx) remember(h store.JournalHead) {
	if t.heads == nil {
		t.heads = map[string]store.JournalHead{}
	}
	t.heads[h.WorkspaceID] = h
}

// Append inserts e and moves the workspace's head to it in one statement
// (one round trip instead of the shared two), held back (held.go): its
// sequence and hash were fixed under the head's lock, and the next
// statement that reads events or workspaces, or the COMMIT, carries it.
// The event is the transaction's witness should its COMMIT lose its
// connection (witness.go).
func (t *Tx) Append(ctx context.Context, e *journal.Event) error {
	err := t.ExecLater(ctx, `WITH appended AS (INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol,
type, entity_id, actor, occurred_at, payload_json, prev_hash, hash, session_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING workspace_id)
UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = (SELECT workspace_id FROM appended)`,
		e.WorkspaceID, e.EpochID, e.Sequence, e.ID, e.Protocol, e.Type, e.EntityID, e.Actor, e.OccurredAt,
		string(e.PayloadJSON), e.PrevHash, e.Hash, e.SessionID, e.Sequence, e.Hash)
	if err != nil {
		delete(t.heads, e.WorkspaceID)
		delete(t.workspaces, e.WorkspaceID)
		return fmt.Errorf("append %s event and move the journal head: %w", e.Type, err)
	}
	if h, ok := t.heads[e.WorkspaceID]; ok {
		h.Sequence, h.Hash = e.Sequence, e.Hash
		t.heads[e.WorkspaceID] = h
	}
	if t.write && t.recording == nil {
		appended := *e
		t.witness.event = &appended
	}
	return nil
}

// TakeWriteGuard returns a release that does nothing: no older client
// reaches a PostgreSQL journal, so there are no v0.2 guard triggers to
// satisfy.
func (t *Tx) TakeWriteGuard(ctx context.Context, nonce string) (func(ctx context.Context) error, error) {
	return func(context.Context) error { return nil }, nil
}
