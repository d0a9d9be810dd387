package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/agenttool/collab/core/store/sqltx"
)

// writeRetryWindow bounds how long a writer keeps retrying BEGIN IMMEDIATE
// when other processes hold the write lock. SQLite's own busy handler
// already waits busyTimeout per attempt; the retry loop absorbs longer
// bursts of contention so that clients never see "database is locked".
const writeRetryWindow = 60 * time.Second

// errReadOnly is returned by mutations on a store opened read-only.
var errReadOnly = errors.New("the database was opened read-only")

// isBusy reports whether err is SQLite's BUSY or LOCKED condition.
func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	return err != nil && strings.Contains(err.Error(), "database is locked")
}

// backoff returns the pause before retry attempt n (0-based).
func backoff(n int) time.Duration {
	d := 10 * time.Millisecond << n
	if n > 3 || d > 100*time.Millisecond {
		return 100 * time.Millisecond
	}
	return d
}

// beginImmediate starts a write transaction on pool, retrying while the
// database is busy for up to window.
func beginImmediate(ctx context.Context, pool *sql.DB, window time.Duration) (*sql.Tx, error) {
	deadline := time.Now().Add(window)
	for attempt := 0; ; attempt++ {
		tx, err := pool.BeginTx(ctx, nil)
		if err == nil {
			return tx, nil
		}
		if !isBusy(err) || time.Now().After(deadline) {
			return nil, fmt.Errorf("begin write transaction: %w", err)
		}
		if err := pause(ctx, backoff(attempt)); err != nil {
			return nil, err
		}
	}
}

// pause waits d, or returns ctx's error as soon as ctx ends: no retry
// loop outlives the call it serves.
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

// Write runs fn in one BEGIN IMMEDIATE transaction and commits it when fn
// returns nil. Any error rolls everything back, so a refusal never leaves a
// partial write. Concurrent calls share a transaction and its COMMIT, each
// in a savepoint of its own (groupcommit.go); each is answered only once
// that COMMIT is done.
func (s *DB) Write(ctx context.Context, fn func(tx *Tx) error) error {
	if s.readOnly {
		return errReadOnly
	}
	return s.writers.Do(ctx, fn, s.runBatch)
}

// Read runs fn in one deferred transaction: every query inside reads the
// same snapshot of the database.
func (s *DB) Read(ctx context.Context, fn func(tx *Tx) error) error {
	tx, err := s.read.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin read transaction: %w", err)
	}
	defer s.readStmts.flush(ctx)
	defer tx.Rollback() //nolint:errcheck // read-only; nothing to keep
	t := newTx(tx, s.readStmts)
	t.counted = s.taskCounts
	return fn(t)
}

// Querier is what both *sql.DB and *sql.Tx offer.
type Querier = sqltx.Querier
