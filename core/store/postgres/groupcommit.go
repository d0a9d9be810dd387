package postgres

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// Group commit (sqltx.Group): the concurrent Write calls of one engine
// run as one SERIALIZABLE transaction on one connection, one after the
// other, each in a SAVEPOINT of its own, and share one COMMIT (one WAL
// flush, one hand-over of the workspace row's lock). A lone call runs as
// it always did (writeAlone).
//
// Each member runs as a Write runs alone, with what a savepoint needs:
//   - Its SAVEPOINT is held (held.go) and goes in one batch with its first
//     statement; everything it sends waits behind it (a barrier). At its
//     end its held writes are sent with its RELEASE, so that a failing
//     held write is its own answer, never a later member's.
//   - A member's error rolls back its savepoint only (ROLLBACK TO, which
//     also ends an aborted transaction state) and is its answer alone;
//     the transaction's caches of journal heads and workspace rows go back
//     to what they were before it, since its row locks and writes are gone.
//     A member that sent nothing is taken back by dropping what it held.
//   - A serialization failure, a deadlock, or a lost connection, anywhere
//     in the batch, fails the whole transaction (a savepoint does not undo
//     what SSI saw): every member runs again in a new one, after the same
//     backoff and within the same window a lone write has, queued on the
//     workspace its attempt met others on (queue.go, serverturn.go, taken
//     once per attempt of the batch).
//   - A COMMIT that lost its connection is settled for each member by its
//     own witness (witness.go): its event at its sequence, else its
//     receipt; found is success, absent runs it again, and a member that
//     nothing it wrote can place is answered write_outcome_unknown. A
//     refused member keeps its refusal only once the transaction is known
//     to have committed; otherwise it runs again (its refusal may have
//     rested on another member's write).
//   - Any other failed COMMIT answers every member with errBatchLost.
//
// No member is answered before the COMMIT has returned (or been settled),
// so nil still means durable. Members see the writes of those before them
// under the row locks the transaction holds, so the chain is the one
// serial commits would have made.

// writeFn is what a Write call runs.
type writeFn = func(tx store.Tx) error

// savepoint is the name every member's savepoint takes; members run one
// at a time, each released or rolled back before the next begins.
const savepoint = "collab_member"

// errBatchLost answers the members of a batch whose COMMIT failed for a
// reason other than a lost connection or a serialization failure.
var errBatchLost = errors.New("the batch this write was committed in failed to commit; nothing of it was written")

// runBatch runs one batch of Write calls and returns each member's answer.
func (e *Engine) runBatch(batch []*sqltx.Member[writeFn]) []error {
	if len(batch) == 1 {
		return []error{e.writeAlone(batch[0].Ctx, batch[0].Fn)}
	}
	errs := make([]error, len(batch))
	todo := make([]int, len(batch))
	for i := range todo {
		todo[i] = i
	}
	deadline := time.Now().Add(writeRetryWindow)
	q := e.newQueuing()
	for attempt := 0; len(todo) > 0; attempt++ {
		a := e.batchAttempt(batch, todo, errs, q.on, deadline)
		e.stats.count(a.failed)
		if a.failed == nil {
			todo = a.rerun
			continue
		}
		if !rerunnable(a.failed) || time.Now().After(deadline) {
			for _, i := range todo {
				errs[i] = classify(a.failed)
			}
			break
		}
		q.failed(a.touched, a.failed)
		if err := pauseBatch(batch, todo, backoff(attempt)); err != nil {
			for _, i := range todo {
				errs[i] = err
			}
			break
		}
	}
	return errs
}

// pauseBatch waits d, or until every member still to run has left.
func pauseBatch(batch []*sqltx.Member[writeFn], todo []int, d time.Duration) error {
	ctx, stop := sqltx.BatchContext(batch[todo[0]].Ctx, members(batch, todo))
	defer stop()
	return pause(ctx, d)
}

// members returns the members todo names.
func members(batch []*sqltx.Member[writeFn], todo []int) []*sqltx.Member[writeFn] {
	out := make([]*sqltx.Member[writeFn], 0, len(todo))
	for _, i := range todo {
		out = append(out, batch[i])
	}
	return out
}

// attempt is what one transaction of a batch came to: failed, when the
// whole transaction failed (every member of todo runs again, or gets it);
// otherwise rerun names the members to run in another transaction, every
// other one being answered. touched is the workspace read last.
type attempt struct {
	failed  error
	rerun   []int
	touched string
}

// memberEnd is how one member's run in a batch's transaction ended.
type memberEnd int

const (
	memberDone    memberEnd = iota // released: it commits with the batch
	memberRefused                  // its savepoint was rolled back: its error is its answer
	batchFailed                    // the transaction failed: every member runs again
	batchEnded                     // its savepoint could not be rolled back: its error is its answer, the others run again
)

// batchAttempt runs the members todo names in one transaction and sets
// the answers it can give in errs.
func (e *Engine) batchAttempt(batch []*sqltx.Member[writeFn], todo []int, errs []error, queuedOn string, deadline time.Time) (a attempt) {
	ctx, stop := sqltx.BatchContext(batch[todo[0]].Ctx, members(batch, todo))
	defer stop()
	conn, release, err := e.attemptConn(ctx, queuedOn, deadline)
	if err != nil {
		return attempt{failed: err}
	}
	defer release()
	t := newWriteTx(conn, &e.stats.roundTrips)
	defer func() {
		if p := recover(); p != nil {
			discard(conn) // whatever the transaction holds goes with it
			panic(p)
		}
	}()
	done := make([]int, 0, len(todo))
	witnesses := make([]witness, 0, len(todo))
	var refused []int
	for _, i := range todo {
		m := batch[i]
		errs[i] = nil
		if err := m.Ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		end, err := t.runMember(ctx, m.Fn)
		if t.touched != "" {
			e.turns.wrote(t.touched)
		}
		switch end {
		case memberDone:
			done = append(done, i)
			witnesses = append(witnesses, t.witness)
		case memberRefused:
			errs[i] = classify(err)
			refused = append(refused, i)
		case batchFailed:
			rollback(conn)
			return attempt{failed: err, touched: t.touched}
		case batchEnded:
			rollback(conn)
			errs[i] = err
			for _, j := range todo {
				if j != i {
					errs[j] = nil
					a.rerun = append(a.rerun, j)
				}
			}
			return a
		}
	}
	return e.commitBatch(ctx, t, batch, done, witnesses, refused, errs, deadline)
}

// commitBatch commits the batch's transaction, whose members done
// (witnessed by witnesses) were released and refused rolled back, and
// settles a COMMIT that lost its connection member by member.
func (e *Engine) commitBatch(ctx context.Context, t *Tx, batch []*sqltx.Member[writeFn], done []int, witnesses []witness, refused []int, errs []error, deadline time.Time) attempt {
	err := e.sendCommit(ctx, t)
	if err == nil {
		return attempt{touched: t.touched}
	}
	rollback(t.conn)
	switch {
	case retriable(err):
		return attempt{failed: err, touched: t.touched}
	case !connectionLost(err):
		lost := fmt.Errorf("%w: commit: %w", errBatchLost, err)
		for _, i := range append(done, refused...) {
			errs[i] = lost
		}
		return attempt{touched: t.touched}
	}
	lost := fmt.Errorf("commit: %w", err)
	a := attempt{touched: t.touched}
	known := false
	for k, i := range done {
		errs[i] = e.settle(ctx, witnesses[k], lost, deadline)
		var again *lostBeforeCommit
		switch {
		case errs[i] == nil:
			known = true
		case errors.As(errs[i], &again):
			errs[i] = nil
			a.rerun = append(a.rerun, i)
		}
	}
	if !known {
		for _, i := range refused {
			errs[i] = nil
			a.rerun = append(a.rerun, i)
		}
	}
	slices.Sort(a.rerun) // queue order, as the chain of serial commits
	return a
}

// sendCommit sends the transaction's COMMIT with whatever it still holds
// (through commitHook when a test set one); a transaction that sent
// nothing has nothing to commit.
func (e *Engine) sendCommit(ctx context.Context, t *Tx) error {
	if !t.begun && len(t.held) == 0 {
		return nil
	}
	commit := func() error {
		_, err := t.pipeline(ctx, nil, true)
		return err
	}
	if e.commitHook != nil {
		return e.commitHook(t, commit)
	}
	return commit()
}

// runMember runs fn as one member of the batch's transaction t, in its
// own savepoint, and says how it ended.
func (t *Tx) runMember(ctx context.Context, fn writeFn) (memberEnd, error) {
	heads, workspaces := maps.Clone(t.heads), maps.Clone(t.workspaces)
	t.witness, t.ahead = witness{}, nil
	sends, mark := t.sends, len(t.held)
	t.held = append(t.held, heldWrite{query: "SAVEPOINT " + savepoint, barrier: true})
	err := fn(t)
	if t.heldErr != nil {
		err = t.heldErr // what failed first; fn saw its aftermath
	}
	t.ahead = nil
	if err == nil {
		if t.sends == sends && len(t.held) == mark+1 {
			t.held = t.held[:mark] // it wrote nothing: no savepoint to keep
			return memberDone, nil
		}
		t.held = append(t.held, heldWrite{query: "RELEASE SAVEPOINT " + savepoint, barrier: true})
		if _, err = t.pipeline(ctx, nil, false); err == nil {
			return memberDone, nil
		}
	}
	if retriable(err) || connectionLost(err) {
		return batchFailed, err
	}
	t.heads, t.workspaces, t.witness = heads, workspaces, witness{}
	if t.sends == sends {
		t.held = t.held[:mark] // nothing of it reached the server
		return memberRefused, err
	}
	// Whatever it still holds came after its savepoint was sent.
	t.held, t.heldErr = nil, nil
	t.trip()
	if _, rerr := t.conn.ExecContext(ctx, "ROLLBACK TO SAVEPOINT "+savepoint+"; RELEASE SAVEPOINT "+savepoint); rerr != nil {
		if connectionLost(rerr) {
			return batchFailed, rerr
		}
		return batchEnded, err
	}
	return memberRefused, err
}
