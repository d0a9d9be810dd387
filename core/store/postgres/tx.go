package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// Tx is one transaction of the engine: a write transaction (Write) or a
// read-only snapshot (Read). Its domain methods are the shared ones
// (sqltx.Tx), whose statements run through the methods below.
type Tx struct {
	sqltx.Tx
	// q runs the statements: the *sql.Tx of a Read, the *sql.Conn of a
	// Write, which begins and ends its transaction itself so that held
	// writes can go to the server with its COMMIT (held.go).
	q     sqltx.Querier
	conn  *sql.Conn
	write bool
	// touched is the workspace whose head a write transaction read last
	// (queue.go).
	touched string
	// heads are the journal heads this transaction has read or moved: a
	// write transaction holds each one's row lock until it ends and a read
	// transaction sees one snapshot, so no one else can change them
	// meanwhile, and a second Head needs no round trip.
	heads map[string]store.JournalHead
	// workspaces are the workspace rows this transaction has read, their
	// heads as read (see Workspace).
	workspaces map[string]store.Workspace
	// witness is what a write transaction wrote that only it can have
	// written, which a COMMIT that lost its connection is settled by
	// (witness.go).
	witness witness
	// held are the writes waiting to be sent (held.go); heldErr is the
	// first failure of sending them, which fails the transaction.
	held    []heldWrite
	heldErr error
	// begun is set once the BEGIN of a write transaction has been sent,
	// which waits for the first statement (batch.go).
	begun bool
	// sends counts the batches sent (pipeline): a batch member that sent
	// none has reached the server with nothing (groupcommit.go).
	sends int
	// member numbers the batch members run in the transaction
	// (groupcommit.go); heldOwner is the member whose statement the first
	// failure of a batch sent was (heldErr), when the transaction runs
	// members.
	member, heldOwner int
	// trips counts the round trips of a write transaction (WriteRoundTrips).
	trips *atomic.Int64
	// ahead is the batch of reads the transaction was told are coming
	// (readahead.go); recording is set in the recorder that learns them.
	ahead     *readAhead
	recording *recorder
}

// newReadTx wraps tx, a read-only transaction.
func newReadTx(tx *sql.Tx) *Tx {
	t := &Tx{q: tx}
	t.Tx = sqltx.NewTx(t, dialect)
	return t
}

// newWriteTx wraps conn, which holds no transaction: the write
// transaction's BEGIN goes with its first statement.
func newWriteTx(conn *sql.Conn, trips *atomic.Int64) *Tx {
	t := &Tx{q: conn, conn: conn, write: true, trips: trips}
	t.Tx = sqltx.NewTx(t, dialect)
	return t
}

// ExecContext runs a statement inside the transaction, in one batch with
// the BEGIN and held writes it must follow (batch.go).
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	query = rebind(query)
	t.wrote(query)
	if t.recording != nil {
		return driver.RowsAffected(0), nil
	}
	t.counted()
	if t.sendsFirst(query) {
		answer, err := t.sendOne(ctx, query, args)
		if err != nil {
			return nil, err
		}
		return driver.RowsAffected(answer.tag.RowsAffected()), nil
	}
	t.trip()
	return t.q.ExecContext(ctx, query, args...)
}

// QueryContext runs a query inside the transaction: from the rows read
// ahead for it (readahead.go), or in one batch with the BEGIN and held
// writes it must follow (batch.go), or on its own.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (sqltx.Rows, error) {
	query = rebind(query)
	if rows, err, ok := t.readAhead(ctx, query, args); ok {
		return rows, err
	}
	if t.sendsFirst(query) {
		answer, err := t.sendOne(ctx, query, args)
		if err != nil {
			return nil, err
		}
		return answer, nil
	}
	t.trip()
	rows, err := t.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

// QueryRowContext runs a one-row query inside the transaction, as
// QueryContext does. When a held write sent with it fails, Write returns
// the held write's error (heldErr) rather than the query's.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) sqltx.Row {
	query = rebind(query)
	if rows, err, ok := t.readAhead(ctx, query, args); ok {
		return firstRow{rows, err}
	}
	if t.sendsFirst(query) {
		answer, err := t.sendOne(ctx, query, args)
		return firstRow{answer, err}
	}
	t.trip()
	return t.q.QueryRowContext(ctx, query, args...)
}

// trip counts one round trip of a write transaction.
func (t *Tx) trip() {
	if t.trips != nil {
		t.trips.Add(1)
	}
}

// rebind turns the engine's "?" placeholders into PostgreSQL's $1, $2, …
// in order. The statements this package writes carry no "?" inside a
// literal, so every "?" is a placeholder.
func rebind(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] != '?' {
			b.WriteByte(query[i])
			continue
		}
		n++
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}
