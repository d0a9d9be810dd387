package postgres

import (
	"context"

	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/sqltx"
)

// headForUpdate reads a journal head and keeps its row locked until the
// transaction ends.
const headForUpdate = sqltx.HeadQuery + " FOR UPDATE"

// Head reads the workspace's journal head. Inside a write transaction it
// locks the workspace row (FOR UPDATE) until the transaction ends, so no
// other transaction appends to the journal meanwhile.
func (t *Tx) Head(ctx context.Context, workspaceID string) (engine.Head, bool, error) {
	if t.write {
		return sqltx.ReadHead(ctx, t, headForUpdate, workspaceID)
	}
	return sqltx.ReadHead(ctx, t, sqltx.HeadQuery, workspaceID)
}

// TakeWriteGuard returns a release that does nothing: no older client
// reaches a PostgreSQL journal, so there are no v0.2 guard triggers to
// satisfy.
func (t *Tx) TakeWriteGuard(ctx context.Context, nonce string) (func(ctx context.Context) error, error) {
	return func(context.Context) error { return nil }, nil
}
