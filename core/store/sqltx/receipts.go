package sqltx

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// FindReceipt reads the receipt of scope. Receipts are unique by the
// mutations table's primary key (workspace_id, actor, idempotency_key).
func (t *Tx) FindReceipt(ctx context.Context, scope store.ReceiptScope) (store.Receipt, bool, error) {
	var r store.Receipt
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
func (t *Tx) InsertReceipt(ctx context.Context, scope store.ReceiptScope, r store.Receipt, createdAt string) error {
	err := t.execLater(ctx, `INSERT INTO mutations (workspace_id, actor, idempotency_key, operation, request_hash,
response_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, scope.WorkspaceID, scope.Actor, scope.Key, r.Operation,
		r.RequestHash, string(r.Response), createdAt)
	if err != nil {
		return fmt.Errorf("record receipt: %w", err)
	}
	return nil
}
