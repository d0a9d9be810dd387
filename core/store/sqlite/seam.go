package sqlite

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// Both the engine and its transactions implement the seam.
var (
	_ store.Engine = (*Engine)(nil)
	_ store.Tx     = (*Tx)(nil)
)

// Engine is DB seen through the engine interface: its transactions are
// store.Tx values.
type Engine struct{ *DB }

// Write runs fn in one BEGIN IMMEDIATE transaction (see DB.Write).
func (e Engine) Write(ctx context.Context, fn func(tx store.Tx) error) error {
	return e.DB.Write(ctx, func(tx *Tx) error { return fn(tx) })
}

// Read runs fn in one read snapshot (see DB.Read).
func (e Engine) Read(ctx context.Context, fn func(tx store.Tx) error) error {
	return e.DB.Read(ctx, func(tx *Tx) error { return fn(tx) })
}

// Head reads the workspace's journal head. Inside a write transaction
// SQLite's database-wide write lock, taken at BEGIN IMMEDIATE, already
// serialises every head, so no row lock is needed.
func (t *Tx) Head(ctx context.Context, workspaceID string) (store.JournalHead, bool, error) {
	return sqltx.ReadHead(ctx, &t.Tx, sqltx.HeadQuery, workspaceID)
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
