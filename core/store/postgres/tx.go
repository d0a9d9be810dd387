package postgres

import (
	"context"
	"database/sql"
	"strconv"
	"strings"

	"github.com/agenttool/collab/core/store/engine"
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
	q     Querier
	conn  *sql.Conn
	write bool
	// touched is the workspace whose head a write transaction read last
	// (queue.go).
	touched string
	// heads are the journal heads this transaction has read or moved: a
	// write transaction holds each one's row lock until it ends and a read
	// transaction sees one snapshot, so no one else can change them
	// meanwhile, and a second Head needs no round trip.
	heads map[string]engine.Head
	// workspaces are the workspace rows this transaction has read, their
	// heads as read (see Workspace).
	workspaces map[string]engine.Workspace
	// xid is the transaction's id once Head has read it in a write
	// transaction, so that commit need not ask.
	xid string
	// held are the writes waiting to be sent (held.go); heldErr is the
	// first failure of sending them, which fails the transaction.
	held    []heldWrite
	heldErr error
}

// newReadTx wraps tx, a read-only transaction.
func newReadTx(tx *sql.Tx) *Tx {
	t := &Tx{q: tx}
	t.Tx = sqltx.NewTx(t, dialect)
	return t
}

// newWriteTx wraps conn, on which a write transaction has begun.
func newWriteTx(conn *sql.Conn) *Tx {
	t := &Tx{q: conn, conn: conn, write: true}
	t.Tx = sqltx.NewTx(t, dialect)
	return t
}

// Querier is what both *sql.Tx and *sql.Conn offer.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ExecContext runs a statement inside the transaction, after the held
// writes it may depend on.
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	query = rebind(query)
	if err := t.sendHeldBefore(ctx, query); err != nil {
		return nil, err
	}
	return t.q.ExecContext(ctx, query, args...)
}

// QueryContext runs a query inside the transaction, after the held
// writes it may depend on.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	query = rebind(query)
	if err := t.sendHeldBefore(ctx, query); err != nil {
		return nil, err
	}
	return t.q.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a one-row query inside the transaction, after the
// held writes it may depend on. A *sql.Row cannot carry their failure;
// the query then fails in the aborted transaction, and Write returns the
// held write's error (heldErr) rather than the query's.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	query = rebind(query)
	_ = t.sendHeldBefore(ctx, query)
	return t.q.QueryRowContext(ctx, query, args...)
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
