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
	tx    *sql.Tx
	write bool
	// touched is the workspace whose head a write transaction read last
	// (queue.go).
	touched string
	// heads are the journal heads this transaction has read or moved: a
	// write transaction holds each one's row lock until it ends and a read
	// transaction sees one snapshot, so no one else can change them
	// meanwhile, and a second Head needs no round trip.
	heads map[string]engine.Head
	// xid is the transaction's id once Head has read it in a write
	// transaction, so that commit need not ask.
	xid string
}

// newTx wraps tx, a write transaction when write is set.
func newTx(tx *sql.Tx, write bool) *Tx {
	t := &Tx{tx: tx, write: write}
	t.Tx = sqltx.NewTx(t, dialect)
	return t
}

// Querier is what both *sql.Tx and *sql.Conn offer.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// ExecContext runs a statement inside the transaction.
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, rebind(query), args...)
}

// QueryContext runs a query inside the transaction.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, rebind(query), args...)
}

// QueryRowContext runs a one-row query inside the transaction.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, rebind(query), args...)
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
