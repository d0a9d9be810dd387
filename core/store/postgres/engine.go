// Package postgres is the PostgreSQL engine of the collab journal: the
// same data the SQLite engine stores, in tables of their own PostgreSQL
// schema (SchemaName), reached through github.com/jackc/pgx/v5.
//
// Concurrency: every write transaction runs at SERIALIZABLE isolation, and
// Head inside a write transaction locks the workspace row (SELECT … FOR
// UPDATE), so a workspace's appends queue on that row and sequences stay
// contiguous. Serialization failures and deadlocks (SQLSTATE 40001, 40P01)
// roll the transaction back and run it again, for a bounded window, the
// way the SQLite engine retries a busy database: of two transactions that
// read and change the same rows, the second runs again and sees the
// first's commit. Writers of one workspace in one engine queue in the
// engine rather than fail each other in the server (queue.go). Receipts
// are unique by the mutations primary key. Reads run at REPEATABLE READ
// READ ONLY: one snapshot per Read.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// Both the engine and its transactions implement the seam.
var (
	_ store.Engine = (*Engine)(nil)
	_ store.Tx     = (*Tx)(nil)
)

// writeRetryWindow bounds how long Write keeps running a transaction
// again after serialization failures and deadlocks; it is the SQLite
// engine's busy-retry window.
const writeRetryWindow = 60 * time.Second

// maxConns caps the connections one engine holds, well under a default
// server's max_connections (100), so that several processes fit; idle
// ones are kept, since opening a connection costs more than a write.
const maxConns = 16

// Engine is an open PostgreSQL journal. It is safe for concurrent use.
type Engine struct {
	pool  *sql.DB
	stats writeStats
	turns turns
	// group batches concurrent writes into one transaction
	// (groupcommit.go).
	group sqltx.Group[writeFn]
	// commitHook, when set (by tests), runs a batch's COMMIT: commit
	// sends it, and what the hook returns is taken as its outcome.
	commitHook func(t *Tx, commit func() error) error
	// firstComeOnly turns the workspace queue off (queue.go): every
	// attempt waits for the workspace row inside its transaction and runs
	// again after a pause, as the engine did before the queue. Benchmarks
	// set it to measure the queue.
	firstComeOnly bool
	// processTurnsOnly keeps queued attempts out of the server's queue
	// (serverturn.go): they wait only for the engine's other writers.
	// Benchmarks set it to measure the server's queue.
	processTurnsOnly bool
}

// Open connects to the server url names (a postgres:// or postgresql://
// URL, or key=value settings; the PG* environment fills what it leaves
// out), and creates the collab schema on first open or checks the one it
// finds (see schema.go).
func Open(ctx context.Context, url string) (*Engine, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("parse PostgreSQL address: %w", err)
	}
	cfg.RuntimeParams["search_path"] = SchemaName
	// A sequential scan in a SERIALIZABLE transaction locks the whole
	// table for the conflict checks, so that writers of different
	// workspaces fail each other; and on a small table (a few workspaces,
	// once analysed) the planner prefers one to the primary key. Index
	// scans lock only the rows and pages they read. Queries that no
	// index serves still scan.
	cfg.RuntimeParams["enable_seqscan"] = "off"
	pool := stdlib.OpenDB(*cfg)
	pool.SetMaxOpenConns(maxConns)
	pool.SetMaxIdleConns(maxConns)
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	e := &Engine{pool: pool}
	if err := e.prepareSchema(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return e, nil
}

// Close releases the engine's connections.
func (e *Engine) Close() error { return e.pool.Close() }

// WriteRoundTrips is how many times write transactions have sent the
// server something and waited for its answer (a statement, or a batch of
// them) since the engine opened, commits and rollbacks of failed attempts
// aside. It is for tests and benchmarks of the round trips a call costs.
func (e *Engine) WriteRoundTrips() int64 { return e.stats.roundTrips.Load() }

// Write runs fn in one SERIALIZABLE transaction and commits it when fn
// returns nil; any error rolls everything back. A serialization failure
// or deadlock, from fn's statements or from the commit, or a connection
// lost before COMMIT, runs fn again in a new transaction until
// writeRetryWindow has passed; a COMMIT that lost its connection is
// settled by asking the server (connloss.go). A serialization failure
// runs again behind the engine's other writers of its workspace, and
// while a workspace stays busy every write queues there first (queue.go).
// Concurrent calls share a transaction (groupcommit.go); a call that
// finds no other writing runs alone, as writeAlone.
func (e *Engine) Write(ctx context.Context, fn func(tx store.Tx) error) error {
	return e.group.Do(ctx, fn, e.runBatch)
}

// writeAlone runs fn in a transaction of its own, running it again as
// Write says.
func (e *Engine) writeAlone(ctx context.Context, fn func(tx store.Tx) error) error {
	deadline := time.Now().Add(writeRetryWindow)
	q := e.newQueuing()
	for attempt := 0; ; attempt++ {
		touched, err := e.writeOnce(ctx, q.on, fn, deadline)
		e.stats.count(err)
		if err == nil || !rerunnable(err) || time.Now().After(deadline) {
			if touched != "" {
				e.turns.wrote(touched)
			}
			return classify(err)
		}
		q.failed(touched, err)
		if err := pause(ctx, backoff(attempt)); err != nil {
			return err
		}
	}
}

// queuing is the workspace whose turn an attempt takes (queue.go): the
// busy one at first, then the one a failed attempt met its writers on.
type queuing struct {
	e  *Engine
	on string
}

// newQueuing starts the queuing of a write's attempts.
func (e *Engine) newQueuing() queuing {
	q := queuing{e: e}
	if !e.firstComeOnly {
		q.on = e.turns.busy()
	}
	return q
}

// failed records an attempt that read workspace touched last and failed
// with err, to be run again.
func (q *queuing) failed(touched string, err error) {
	e := q.e
	if touched != "" {
		e.turns.wrote(touched)
	}
	if touched != "" && !e.firstComeOnly && retriable(err) {
		if q.on == touched {
			e.turns.metAcross(touched)
		}
		e.turns.met(touched)
		q.on = touched
	}
}

// writeOnce runs one attempt of fn, holding the engine's turn of workspace
// queuedOn when it is not empty, and returns the workspace whose head the
// attempt read last.
func (e *Engine) writeOnce(ctx context.Context, queuedOn string, fn func(tx store.Tx) error, deadline time.Time) (touched string, err error) {
	conn, release, err := e.attemptConn(ctx, queuedOn, deadline)
	if err != nil {
		return "", err
	}
	defer release()
	t := newWriteTx(conn, &e.stats.roundTrips)
	err = fn(t)
	if t.heldErr != nil {
		err = t.heldErr // what failed first; fn saw its aftermath
	}
	if err != nil {
		if t.begun {
			rollback(conn)
		}
		return t.touched, err
	}
	return t.touched, e.commit(ctx, t, deadline)
}

// attemptConn takes the connection of one write attempt, after the
// engine's turn of workspace queuedOn (when not empty) and, while that
// workspace's writers meet other processes' writers, its turn in the
// server (serverturn.go); release gives all of it back.
func (e *Engine) attemptConn(ctx context.Context, queuedOn string, deadline time.Time) (*sql.Conn, func(), error) {
	giveTurn := func() {}
	if queuedOn != "" {
		give, err := e.turns.take(ctx, queuedOn)
		if err != nil {
			return nil, nil, err
		}
		giveTurn = give
	}
	if queuedOn != "" && !e.processTurnsOnly && e.turns.acrossBusy(queuedOn) {
		turn, give, err := e.serverTurn(ctx, queuedOn)
		if err != nil {
			giveTurn()
			return nil, nil, err
		}
		return turn, func() { give(); giveTurn() }, nil
	}
	conn, err := e.writeConn(ctx, deadline)
	if err != nil {
		giveTurn()
		return nil, nil, fmt.Errorf("begin write transaction: %w", err)
	}
	return conn, func() { _ = conn.Close(); giveTurn() }, nil
}

// Read runs fn in one REPEATABLE READ, READ ONLY transaction: every query
// inside reads the same snapshot. Its BEGIN waits out an unreachable
// server for writeRetryWindow; a connection lost inside fn is returned
// (wrapping ErrConnectionLost), not run again.
func (e *Engine) Read(ctx context.Context, fn func(tx store.Tx) error) error {
	tx, err := e.begin(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true}, time.Now().Add(writeRetryWindow))
	if err != nil {
		return classify(fmt.Errorf("begin read transaction: %w", err))
	}
	defer tx.Rollback() //nolint:errcheck // read-only; nothing to keep
	return classify(fn(newReadTx(tx)))
}

// retriable reports whether err is a serialization failure or a deadlock,
// which running the transaction again resolves.
func retriable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	return false
}

// backoff returns the pause before retry attempt n (0-based): short at
// first, since most conflicts clear as soon as the other transaction
// commits, then capped.
func backoff(n int) time.Duration {
	d := time.Millisecond << n
	if n > 6 || d > 50*time.Millisecond {
		return 50 * time.Millisecond
	}
	return d
}

// pause waits d, or returns ctx's error as soon as ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
