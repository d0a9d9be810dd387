package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agenttool/collab/core/store/sqltx"
)

// Group commit (sqltx.Group): the concurrent Write calls of one process
// run as one BEGIN IMMEDIATE transaction, one after the other, each in a
// SAVEPOINT of its own, and share one COMMIT. A member's error rolls back
// its savepoint only and is its answer alone; the others still commit.
// Every member sees what the members before it wrote, exactly as if each
// had committed before the next began (the write lock is held from BEGIN
// to COMMIT, so no other process writes in between): a second append to
// a workspace reads the head the first one moved, and the chain is the
// one serial commits would have made. No member is answered before the
// COMMIT has returned and the file checks after it (CheckSameFile,
// tightenModes) have passed, so nil still means durable at the store's
// synchronous level. A batch of one runs without a savepoint: the
// statements of an uncontended Write are the ones it always ran.

// writeFn is what a Write call runs.
type writeFn = func(tx *Tx) error

// savepoint is the name every member's savepoint takes; members run one
// at a time, each released or rolled back before the next begins.
const savepoint = "collab_member"

// errBatchLost is the answer of a member whose write a failed COMMIT
// took with it; every member of that batch gets it, refused ones too,
// since what refused them may have been another member's uncommitted
// write.
var errBatchLost = errors.New("the batch this write was committed in failed to commit; nothing of it was written")

// runBatch runs one batch of Write calls and returns each member's answer.
// When a member's failure takes the whole transaction with it (SQLite
// rolls a transaction back by itself after some errors: a full disk, an
// I/O error, an interrupt), that member gets its error and every other
// member runs again in a new transaction: none of them had committed, and
// a Write's function may run more than once. Each rerun drops the member
// that failed, so the loop ends.
func (s *DB) runBatch(batch []*sqltx.Member[writeFn]) []error {
	errs := make([]error, len(batch))
	todo := make([]int, len(batch))
	for i := range todo {
		todo[i] = i
	}
	for len(todo) > 0 {
		todo = s.commitBatch(batch, todo, errs)
	}
	return errs
}

// commitBatch runs the members todo names in one transaction, sets their
// answers in errs, and returns the members to run again.
func (s *DB) commitBatch(batch []*sqltx.Member[writeFn], todo []int, errs []error) (rerun []int) {
	members := make([]*sqltx.Member[writeFn], 0, len(todo))
	for _, i := range todo {
		members = append(members, batch[i])
	}
	ctx, stop := sqltx.BatchContext(batch[todo[0]].Ctx, members)
	defer stop()
	fail := func(err error) []int {
		for _, i := range todo {
			if errs[i] == nil {
				errs[i] = err
			}
		}
		return nil
	}
	if err := s.CheckSameFile(); err != nil {
		return fail(err)
	}
	tx, err := beginImmediate(ctx, s.write, writeRetryWindow)
	if err != nil {
		return fail(err)
	}
	defer s.writeStmts.flush(ctx)
	// A panicking function must give the write connection back before
	// the flush above asks the pool for it.
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
	}()
	committed, rerun := s.runMembers(ctx, tx, batch, todo, errs)
	if rerun != nil || committed == 0 {
		_ = tx.Rollback()
		return rerun
	}
	if err := tx.Commit(); err != nil {
		_ = tx.Rollback()
		lost := fmt.Errorf("%w: commit: %w", errBatchLost, err)
		for _, i := range todo {
			errs[i] = lost
		}
		return nil
	}
	if s.memory {
		return nil
	}
	// Committed into a file that is gone from its path: not durable
	// where anyone will look, so not acknowledged either.
	err = s.CheckSameFile()
	if err == nil {
		err = tightenModes(s.path)
	}
	if err != nil {
		return fail(err)
	}
	return nil
}

// runMembers runs each member's function in tx, in order, and returns how
// many succeeded; rerun is non-nil when a member's failure ended the
// transaction, and names every other member still to answer.
func (s *DB) runMembers(ctx context.Context, tx *sql.Tx, batch []*sqltx.Member[writeFn], todo []int, errs []error) (committed int, rerun []int) {
	alone := len(todo) == 1
	for _, i := range todo {
		m := batch[i]
		if err := m.Ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		t := newTx(tx, s.writeStmts)
		t.batch = ctx
		t.counted = s.taskCounts
		if alone {
			errs[i] = m.Fn(t)
		} else {
			errs[i] = s.inSavepoint(ctx, t, m.Fn)
		}
		if errs[i] == nil {
			committed++
			continue
		}
		var ended *txEnded
		if !alone && errors.As(errs[i], &ended) {
			// Everything before this member went with the transaction:
			// run every other member again, without it. Those refused
			// run again too, since what refused them may have been a
			// write that is now gone.
			errs[i] = ended.err
			for _, j := range todo {
				if j != i {
					errs[j] = nil
					rerun = append(rerun, j)
				}
			}
			return 0, rerun
		}
	}
	return committed, nil
}

// txEnded wraps a member's error after which its savepoint could not be
// begun, rolled back or released: SQLite ended the whole transaction.
type txEnded struct{ err error }

func (e *txEnded) Error() string { return e.err.Error() }
func (e *txEnded) Unwrap() error { return e.err }

// inSavepoint runs fn inside a savepoint of t's transaction: released
// when fn succeeds, rolled back (and released) when it fails.
func (s *DB) inSavepoint(ctx context.Context, t *Tx, fn writeFn) error {
	if _, err := t.ExecContext(ctx, "SAVEPOINT "+savepoint); err != nil {
		return &txEnded{fmt.Errorf("begin savepoint: %w", err)}
	}
	if err := fn(t); err != nil {
		if _, rerr := t.ExecContext(ctx, "ROLLBACK TO "+savepoint); rerr != nil {
			return &txEnded{err}
		}
		if _, rerr := t.ExecContext(ctx, "RELEASE "+savepoint); rerr != nil {
			return &txEnded{err}
		}
		return err
	}
	if _, err := t.ExecContext(ctx, "RELEASE "+savepoint); err != nil {
		return &txEnded{fmt.Errorf("release savepoint: %w", err)}
	}
	return nil
}
