package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// noProgress is the progress interval of checks that report none.
const noProgress = 0

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

// verifyChain recomputes h's chain from genesis against h.
func verifyChain(ctx context.Context, c store.Chains, h store.JournalHead) (bool, error) {
	ok, err := journal.VerifyFeed(h.Sequence, h.Hash, noProgress, nil, func(emit func(*journal.Event) error) error {
		return c.Events(ctx, h, emit)
	})
	if errors.Is(err, store.ErrUnreadableEvent) {
		return false, nil
	}
	return ok, err
}

// VerifyChain recomputes the full chain of one workspace from genesis,
// reading the head and every event from one snapshot; found is false when
// there is no such workspace.
func (e *Engine) VerifyChain(ctx context.Context, workspaceID string) (ok, found bool, err error) {
	err = e.ReadChains(ctx, func(c store.Chains) error {
		var h store.JournalHead
		if h, found, err = c.Head(ctx, workspaceID); err != nil || !found {
			return err
		}
		ok, err = verifyChain(ctx, c, h)
		return err
	})
	return ok, found, err
}
