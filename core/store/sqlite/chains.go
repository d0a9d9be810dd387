package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

var _ store.ChainReader = (*DB)(nil)

// ReadChains runs fn on one read connection holding one snapshot.
func (s *DB) ReadChains(ctx context.Context, fn func(c store.Chains) error) error {
	conn, err := s.read.Conn(ctx)
	if err != nil {
		return fmt.Errorf("open read connection: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck // read-only snapshot
	return fn(&chains{q: conn, conn: conn, directURI: s.directURI})
}

// chains reads journals for verification inside the transaction q is in.
// With conn set, events stream from the driver directly (see rawscan.go);
// without (inside a migration's *sql.Tx), through database/sql.
type chains struct {
	q          Querier
	conn       *sql.Conn
	sessionCol string // "session_id", or "NULL" for files that predate it; "" until known
	// directURI, when set, names the file for the direct connections
	// that read long journals' halves (Ranges).
	directURI string
}

// Journals lists every workspace's head, name and event count.
func (c *chains) Journals(ctx context.Context) ([]store.JournalSummary, error) {
	if tables, err := HasUserTables(ctx, c.q); err != nil || !tables {
		return nil, err
	}
	return sqltx.ListJournals(ctx, sqltx.WrapSQL(c.q))
}

// Head reads one workspace's head.
func (c *chains) Head(ctx context.Context, workspaceID string) (store.JournalHead, bool, error) {
	return sqltx.ReadHead(ctx, sqltx.WrapSQL(c.q), sqltx.HeadQuery, workspaceID)
}

// sessionColumn is what selects an event's session_id in this file.
func (c *chains) sessionColumn(ctx context.Context) (string, error) {
	if c.sessionCol == "" {
		has, err := ColumnExists(ctx, c.q, "events", "session_id")
		if err != nil {
			return "", err
		}
		c.sessionCol = "NULL"
		if has {
			c.sessionCol = "session_id"
		}
	}
	return c.sessionCol, nil
}

// Events streams h's journal: from the driver when a connection is at
// hand and the file has the current events table, otherwise through
// database/sql, whose conversion failures are then errors as they always
// were on those paths.
func (c *chains) Events(ctx context.Context, h store.JournalHead, fn func(e *journal.Event) error) error {
	col, err := c.sessionColumn(ctx)
	if err != nil {
		return err
	}
	if c.conn != nil && col == "session_id" {
		return streamRaw(ctx, c.conn, h, wholeJournal, fn)
	}
	return c.ScanEvents(ctx, h, func(e *journal.Event, rowErr error) error {
		if rowErr != nil {
			return rowErr
		}
		return fn(e)
	})
}

// ScanEvents streams h's journal through database/sql's conversions.
func (c *chains) ScanEvents(ctx context.Context, h store.JournalHead, fn func(e *journal.Event, rowErr error) error) error {
	col, err := c.sessionColumn(ctx)
	if err != nil {
		return err
	}
	rows, err := c.q.QueryContext(ctx, "SELECT workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,"+
		" occurred_at, payload_json, prev_hash, hash, "+col+" FROM events WHERE workspace_id = ? ORDER BY sequence", h.WorkspaceID)
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

// verifyAllJournals refuses a database any of whose journals fails
// verification from genesis. q is the preflight's *sql.Conn (events then
// stream from the driver, and long journals are read in halves on direct
// connections to directURI when it is set) or a migration's transaction.
// A current file's preflight verifies with verifyOnOpen instead.
func verifyAllJournals(ctx context.Context, q Querier, directURI string) error {
	heads, err := readHeads(ctx, q)
	if err != nil {
		return err
	}
	c := &chains{q: q, sessionCol: "session_id", directURI: directURI}
	c.conn, _ = q.(*sql.Conn)
	for _, h := range heads {
		ok, err := journal.VerifyChain(store.Stored(ctx, c, h), 0, nil)
		if err != nil {
			return err
		}
		if !ok {
			return journalInvalid(h.WorkspaceID)
		}
	}
	return nil
}

// readHeads reads every workspace's recorded head, in id order.
func readHeads(ctx context.Context, q Querier) ([]store.JournalHead, error) {
	rows, err := q.QueryContext(ctx, "SELECT id, epoch_id, event_head_sequence, event_head_hash FROM workspaces ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("read workspaces: %w", err)
	}
	defer rows.Close()
	var heads []store.JournalHead
	for rows.Next() {
		var h store.JournalHead
		if err := rows.Scan(&h.WorkspaceID, &h.EpochID, &h.Sequence, &h.Hash); err != nil {
			return nil, err
		}
		heads = append(heads, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read workspaces: %w", err)
	}
	return heads, nil
}
