package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/sqltx"
)

var _ engine.ChainReader = (*DB)(nil)

// noProgress is the progress interval of checks that report none.
const noProgress = 0

// ReadChains runs fn on one read connection holding one snapshot.
func (s *DB) ReadChains(ctx context.Context, fn func(c engine.Chains) error) error {
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
	// that read long journals' halves (verifyHalves).
	directURI string
}

// Journals lists every workspace's head, name and event count.
func (c *chains) Journals(ctx context.Context) ([]engine.JournalHead, error) {
	if tables, err := HasUserTables(ctx, c.q); err != nil || !tables {
		return nil, err
	}
	return sqltx.ListJournals(ctx, sqltx.WrapSQL(c.q))
}

// Head reads one workspace's head.
func (c *chains) Head(ctx context.Context, workspaceID string) (engine.Head, bool, error) {
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
func (c *chains) Events(ctx context.Context, h engine.Head, fn func(e *journal.Event) error) error {
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
func (c *chains) ScanEvents(ctx context.Context, h engine.Head, fn func(e *journal.Event, rowErr error) error) error {
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

// verifyChains recomputes h's chain from genesis against h.
func verifyChains(ctx context.Context, c engine.Chains, h engine.Head) (bool, error) {
	ok, err := journal.VerifyFeed(h.Sequence, h.Hash, noProgress, nil, func(emit func(*journal.Event) error) error {
		return c.Events(ctx, h, emit)
	})
	if errors.Is(err, engine.ErrUnreadableEvent) {
		return false, nil
	}
	return ok, err
}

// verifyAllJournals refuses a database any of whose journals fails
// verification. q is the preflight's *sql.Conn (events then stream from
// the driver, and long journals are read in halves on direct connections
// to directURI when it is set) or a migration's transaction.
func verifyAllJournals(ctx context.Context, q Querier, directURI string) error {
	rows, err := q.QueryContext(ctx, "SELECT id, epoch_id, event_head_sequence, event_head_hash FROM workspaces ORDER BY id")
	if err != nil {
		return fmt.Errorf("read workspaces: %w", err)
	}
	var heads []engine.Head
	for rows.Next() {
		var h engine.Head
		if err := rows.Scan(&h.WorkspaceID, &h.EpochID, &h.Sequence, &h.Hash); err != nil {
			rows.Close()
			return err
		}
		heads = append(heads, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read workspaces: %w", err)
	}
	c := &chains{q: q, sessionCol: "session_id", directURI: directURI}
	c.conn, _ = q.(*sql.Conn)
	for _, h := range heads {
		ok, err := c.verify(ctx, h)
		if err != nil {
			return err
		}
		if !ok {
			return collaberr.New(collaberr.DatabaseJournalInvalid,
				"A workspace journal fails hash-chain verification; the file was changed outside collab").
				With("workspace_id", h.WorkspaceID)
		}
	}
	return nil
}

// VerifyChain recomputes the full chain of one workspace from genesis,
// reading the head from one snapshot and every event up to it; found is
// false when there is no such workspace. A long journal is read in two
// halves at once (verifyHalves).
func (s *DB) VerifyChain(ctx context.Context, workspaceID string) (ok, found bool, err error) {
	err = s.ReadChains(ctx, func(ec engine.Chains) error {
		c := ec.(*chains)
		var h engine.Head
		if h, found, err = c.Head(ctx, workspaceID); err != nil || !found {
			return err
		}
		ok, err = c.verify(ctx, h)
		return err
	})
	return ok, found, err
}

// verify recomputes h's chain from genesis: in two halves at once when
// the journal is long, the file current and direct connections at hand,
// otherwise in one pass.
func (c *chains) verify(ctx context.Context, h engine.Head) (bool, error) {
	if ok, done, err := c.verifyLong(ctx, h); done {
		return ok, err
	}
	return verifyChains(ctx, c, h)
}
