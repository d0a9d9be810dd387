package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
)

// Head reads the workspace's journal head. Inside a write transaction it
// locks the workspace row (FOR NO KEY UPDATE, see ReadHead) until the
// transaction ends, so no other transaction appends to the journal
// meanwhile.
func (t *Tx) Head(ctx context.Context, workspaceID string) (engine.Head, bool, error) {
	return ReadHead(ctx, t, workspaceID, t.write)
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
	var r engine.Receipt
	var resp string
	err := t.QueryRowContext(ctx, `SELECT operation, request_hash, response_json FROM mutations
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
	if _, err := q.ExecContext(ctx, "INSERT INTO repositories (key, created_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
		key, now); err != nil {
		return fmt.Errorf("insert repository: %w", err)
	}
	return nil
}

// TakeWriteGuard returns a release that does nothing: no older client
// reaches a PostgreSQL journal, so there are no v0.2 guard triggers to
// satisfy.
func (t *Tx) TakeWriteGuard(ctx context.Context, nonce string) (func(ctx context.Context) error, error) {
	return func(context.Context) error { return nil }, nil
}
