package postgres

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
)

// Tx is one transaction of the engine: a write transaction (Write) or a
// read-only snapshot (Read).
type Tx struct {
	tx    *sql.Tx
	write bool
	// touched is the workspace whose head a write transaction read last
	// (queue.go).
	touched string
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

// limitArg binds a LIMIT the way SQLite reads it: a negative limit is no
// limit (PostgreSQL refuses a negative one; LIMIT NULL is none).
func limitArg[N int | int64](n N) any {
	if n < 0 {
		return nil
	}
	return int64(n)
}
