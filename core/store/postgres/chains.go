package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// ReadChains runs fn against one REPEATABLE READ, READ ONLY snapshot.
func (e *Engine) ReadChains(ctx context.Context, fn func(c store.Chains) error) error {
	tx, err := e.pool.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read-only snapshot
	return fn(&chains{q: newReadTx(tx)})
}

// chains reads journals for verification inside one snapshot.
type chains struct{ q sqltx.Runner }

// Journals lists every workspace's head, name and event count, in
// workspace id order.
func (c *chains) Journals(ctx context.Context) ([]store.JournalSummary, error) {
	return sqltx.ListJournals(ctx, c.q)
}

// Head reads one workspace's head.
func (c *chains) Head(ctx context.Context, workspaceID string) (store.JournalHead, bool, error) {
	return sqltx.ReadHead(ctx, c.q, sqltx.HeadQuery, workspaceID)
}

// Events streams h's journal in sequence order. Every column is typed
// and NOT NULL where the journal needs it, so a row that does not read as
// an event cannot be stored; a scan failure is an error.
func (c *chains) Events(ctx context.Context, h store.JournalHead, fn func(e *journal.Event) error) error {
	return c.ScanEvents(ctx, h, func(e *journal.Event, rowErr error) error {
		if rowErr != nil {
			return rowErr
		}
		return fn(e)
	})
}

// ScanEvents streams h's journal through database/sql's conversions.
func (c *chains) ScanEvents(ctx context.Context, h store.JournalHead, fn func(e *journal.Event, rowErr error) error) error {
	rows, err := c.q.QueryContext(ctx, "SELECT "+sqltx.EventColumns+" FROM events WHERE workspace_id = ? ORDER BY sequence",
		h.WorkspaceID)
	if err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	defer rows.Close()
	var e journal.Event
	for rows.Next() {
		if err := fn(&e, sqltx.ScanEvent(rows, &e)); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	return nil
}

// Ranges offers no ranges: a PostgreSQL journal is read in one pass.
func (c *chains) Ranges(context.Context, store.JournalHead) ([]journal.Range, error) { return nil, nil }
