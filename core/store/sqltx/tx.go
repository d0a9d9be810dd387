// Package sqltx holds the SQL of the journal's domain, written once for
// both SQL engines: every statement behind store.Tx's domain methods
// (tasks, leases, sessions, reports, handoffs, presence, views, events,
// receipts, workspaces and worktrees) and the Go that binds and scans it.
//
// An engine supplies what is its own: a Runner that executes a statement
// inside its transaction (the SQLite engine through its statement cache,
// the PostgreSQL engine after rebinding the "?" placeholders), and a
// Dialect naming exactly where the two engines' SQL differs. Everything
// about transactions — how they begin, lock a journal head, retry and
// commit — stays with the engine, which embeds Tx in its own transaction
// type and adds Head and TakeWriteGuard.
package sqltx

import (
	"context"
	"database/sql"
)

// Runner executes one statement inside a transaction. Statements use "?"
// placeholders; an engine whose server wants another style rewrites them.
// Its answers are Rows and Row, which database/sql's types are, so that an
// engine may also answer from rows it has already read (the PostgreSQL
// engine's reads ahead). WrapSQL makes a Runner of a Querier.
type Runner interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) Row
}

// Rows is the answer of a query, read row by row as *sql.Rows is: Next
// before every Scan, Err once Next is false, Close always.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close() error
}

// Row is the answer of a query expected to return one row, as *sql.Row
// is: Scan returns sql.ErrNoRows when there is none.
type Row interface {
	Scan(dest ...any) error
}

// Querier is what *sql.Tx, *sql.Conn and *sql.DB offer.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// WrapSQL returns the Runner that runs statements on q as they are.
func WrapSQL(q Querier) Runner { return sqlRunner{q} }

type sqlRunner struct{ q Querier }

func (r sqlRunner) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return r.q.ExecContext(ctx, query, args...)
}

func (r sqlRunner) QueryContext(ctx context.Context, query string, args ...any) (Rows, error) {
	rows, err := r.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (r sqlRunner) QueryRowContext(ctx context.Context, query string, args ...any) Row {
	return r.q.QueryRowContext(ctx, query, args...)
}

// runner is Runner under a name that does not export the embedded field.
type runner = Runner

// Tx implements the domain methods of store.Tx over a Runner, in one
// Dialect. Its statements run through the Runner only, so whatever the
// engine's Runner does to a statement (caching, rebinding) applies to
// every one of them. The zero Tx is not usable: build it with NewTx.
type Tx struct {
	runner
	d *Dialect
}

// Deferrer is a Runner that may hold a write back and send it with a later
// statement or the commit, saving a round trip to a server. ExecLater is
// for writes whose result nobody reads: it reports no rows affected, and a
// failure may surface at any later statement of the transaction or at its
// commit instead (the transaction fails either way). A Deferrer must run a
// held write before any later statement that names a table it writes, so
// the transaction reads its own writes.
type Deferrer interface {
	ExecLater(ctx context.Context, query string, args ...any) error
}

// execLater runs a write whose result is not read: held back when the
// Runner is a Deferrer, at once otherwise.
func (t *Tx) execLater(ctx context.Context, query string, args ...any) error {
	if d, ok := t.runner.(Deferrer); ok {
		return d.ExecLater(ctx, query, args...)
	}
	_, err := t.ExecContext(ctx, query, args...)
	return err
}

// NewTx returns the domain methods of the transaction r runs statements
// in, spoken in dialect d.
func NewTx(r Runner, d *Dialect) Tx {
	return Tx{runner: r, d: d}
}
