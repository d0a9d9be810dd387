package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
)

// Both the engine and its transactions implement the seam.
var (
	_ engine.Engine = (*Engine)(nil)
	_ engine.Tx     = (*Tx)(nil)
)

// Engine is DB seen through the engine interface: its transactions are
// engine.Tx values.
type Engine struct{ *DB }

// Write runs fn in one BEGIN IMMEDIATE transaction (see DB.Write).
func (e Engine) Write(ctx context.Context, fn func(tx engine.Tx) error) error {
	return e.DB.Write(ctx, func(tx *Tx) error { return fn(tx) })
}

// Read runs fn in one read snapshot (see DB.Read).
func (e Engine) Read(ctx context.Context, fn func(tx engine.Tx) error) error {
	return e.DB.Read(ctx, func(tx *Tx) error { return fn(tx) })
}

// Head reads the workspace's journal head. Inside a write transaction
// SQLite's database-wide write lock, taken at BEGIN IMMEDIATE, already
// serialises every head, so no row lock is needed.
func (t *Tx) Head(ctx context.Context, workspaceID string) (engine.Head, bool, error) {
	return ReadHead(ctx, t, workspaceID)
}

// Append inserts e and moves the workspace's head to it.
func (t *Tx) Append(ctx context.Context, e *journal.Event) error {
	_, err := t.ExecContext(ctx, `INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,
occurred_at, payload_json, prev_hash, hash, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.WorkspaceID, e.EpochID, e.Sequence, e.ID, e.Protocol, e.Type, e.EntityID, e.Actor, e.OccurredAt,
		string(e.PayloadJSON), e.PrevHash, e.Hash, e.SessionID)
	if err != nil {
		return fmt.Errorf("insert %s event: %w", e.Type, err)
	}
	if _, err := t.ExecContext(ctx, "UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = ?",
		e.Sequence, e.Hash, e.WorkspaceID); err != nil {
		return fmt.Errorf("move journal head: %w", err)
	}
	return nil
}

// FindReceipt reads the receipt of scope. Receipts are unique by the
// mutations table's primary key (workspace_id, actor, idempotency_key).
func (t *Tx) FindReceipt(ctx context.Context, scope engine.ReceiptScope) (engine.Receipt, bool, error) {
	return FindReceipt(ctx, t, scope)
}

// FindReceipt reads the receipt of scope through q.
func FindReceipt(ctx context.Context, q Querier, scope engine.ReceiptScope) (engine.Receipt, bool, error) {
	var r engine.Receipt
	var resp string
	err := q.QueryRowContext(ctx, `SELECT operation, request_hash, response_json FROM mutations
WHERE workspace_id = ? AND actor = ? AND idempotency_key = ?`, scope.WorkspaceID, scope.Actor, scope.Key).
		Scan(&r.Operation, &r.RequestHash, &resp)
	if err == sql.ErrNoRows {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("read receipt: %w", err)
	}
	r.Response = []byte(resp)
	return r, true, nil
}

// InsertReceipt stores r for scope.
func (t *Tx) InsertReceipt(ctx context.Context, scope engine.ReceiptScope, r engine.Receipt, createdAt string) error {
	_, err := t.ExecContext(ctx, `INSERT INTO mutations (workspace_id, actor, idempotency_key, operation, request_hash,
response_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, scope.WorkspaceID, scope.Actor, scope.Key, r.Operation,
		r.RequestHash, string(r.Response), createdAt)
	if err != nil {
		return fmt.Errorf("record receipt: %w", err)
	}
	return nil
}

// CreateWorkspace stores a new workspace with an empty journal.
func (t *Tx) CreateWorkspace(ctx context.Context, w engine.NewWorkspace) error {
	if err := insertRepository(ctx, t, w.RepositoryKey, w.CreatedAt); err != nil {
		return err
	}
	if _, err := t.ExecContext(ctx, `INSERT INTO workspaces (id, epoch_id, root_path, name, created_at, event_head_sequence,
event_head_hash, repository_key) VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
		w.ID, w.EpochID, w.RootPath, w.Name, w.CreatedAt, journal.GenesisHash, w.RepositoryKey); err != nil {
		return fmt.Errorf("insert workspace: %w", err)
	}
	return nil
}

// AddWorktree registers a worktree (and its repository when new).
func (t *Tx) AddWorktree(ctx context.Context, workspaceID string, w engine.WorktreeFacts, now string) error {
	if err := insertRepository(ctx, t, w.RepositoryKey, now); err != nil {
		return err
	}
	return InsertWorktree(ctx, t, workspaceID, w, now)
}

func insertRepository(ctx context.Context, q Querier, key, now string) error {
	if _, err := q.ExecContext(ctx, "INSERT OR IGNORE INTO repositories (key, created_at) VALUES (?, ?)", key, now); err != nil {
		return fmt.Errorf("insert repository: %w", err)
	}
	return nil
}

// TakeWriteGuard holds a v2_write_guard row, which the v0.2 triggers
// require of every session-plane write, until release deletes it.
func (t *Tx) TakeWriteGuard(ctx context.Context, nonce string) (func(ctx context.Context) error, error) {
	if _, err := t.ExecContext(ctx, "INSERT INTO v2_write_guard (nonce, enabled) VALUES (?, 1)", nonce); err != nil {
		return nil, fmt.Errorf("take write guard: %w", err)
	}
	return func(ctx context.Context) error {
		_, err := t.ExecContext(ctx, "DELETE FROM v2_write_guard WHERE nonce = ?", nonce)
		return err
	}, nil
}
