package postgres

import (
	"context"
	"database/sql"
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
	batchEnded                     // a savepoint could not be rolled back: the member to blame gets its error, the others run again
	pendingFailed                  // a pending member's held write failed: it is refused, the members after it run again
	goOn                           // (step) nothing for the attempt to do but go on
)

// memberMark is a member of the batch's transaction as it began: its
// place in the batch, its number (Tx.member), and the transaction's state
// then, to put back should its savepoint be rolled back.
type memberMark struct {
	index      int // in the batch
	at         int // in the attempt's todo
	id         int
	sends      int // Tx.sends as it began
	mark       int // len(Tx.held) as it began
	heads      map[string]store.JournalHead
	workspaces map[string]store.Workspace
}

// batchRun is one attempt of a batch: its transaction, and what each
// member came to so far.
type batchRun struct {
	t         *Tx
	batch     []*sqltx.Member[writeFn]
	todo      []int
	errs      []error
	ends      map[int]memberEnd
	witnesses map[int]witness
	// pending are the members, in order, whose held writes and RELEASE
	// have not been sent yet: they go with the next member's first
	// statement, or with the flush before COMMIT.
	pending []*memberMark
}

// batchAttempt runs the members todo names in one transaction and sets
// the answers it can give in errs.
func (e *Engine) batchAttempt(batch []*sqltx.Member[writeFn], todo []int, errs []error, queuedOn string, deadline time.Time) attempt {
	ctx, stop := sqltx.BatchContext(batch[todo[0]].Ctx, members(batch, todo))
	defer stop()
	conn, release, err := e.attemptConn(ctx, queuedOn, deadline)
	if err != nil {
		return attempt{failed: err}
	}
	defer release()
	r := &batchRun{t: newWriteTx(conn, &e.stats.roundTrips), batch: batch, todo: todo, errs: errs,
		ends: map[int]memberEnd{}, witnesses: map[int]witness{}}
	defer func() {
		if p := recover(); p != nil {
			discard(conn) // whatever the transaction holds goes with it
			panic(p)
		}
	}()
	for k := 0; ; {
		var end memberEnd
		var err error
		switch {
		case k < len(todo):
			end, err, k = r.step(ctx, e, k)
		case len(r.pending) > 0:
			end, err = r.t.flush(ctx, r.pending)
		default:
			return e.commitBatch(ctx, r.t, r.ends, r.witnesses, errs, deadline)
		}
		switch end {
		case batchFailed:
			rollback(conn)
			return attempt{failed: err, touched: r.t.touched}
		case batchEnded:
			return endedBy(conn, todo, r.culprit(todo[min(k, len(todo)-1)]), err, errs)
		case pendingFailed:
			k = r.blame(err)
		case memberDone:
			r.pending = r.pending[:0]
		}
	}
}

// step runs member todo[k] and returns how it ended and the next k.
func (r *batchRun) step(ctx context.Context, e *Engine, k int) (memberEnd, error, int) {
	i, t := r.todo[k], r.t
	r.errs[i] = nil
	delete(r.ends, i)
	if err := r.batch[i].Ctx.Err(); err != nil {
		r.errs[i] = err
		return goOn, nil, k + 1
	}
	end, err, me := t.runMember(ctx, r.batch[i].Fn, i, k, r.pending)
	if t.touched != "" {
		e.turns.wrote(t.touched)
	}
	switch end {
	case memberDone:
		r.ends[i], r.witnesses[i] = memberDone, t.witness
		if t.sendsSince(me) {
			r.pending = r.pending[:0] // what was held before it was sent, and ran
		}
		if t.holdsFor(me) {
			r.pending = append(r.pending, me)
		}
	case memberRefused:
		r.ends[i], r.errs[i] = memberRefused, classify(err)
		if t.sendsSince(me) {
			r.pending = r.pending[:0]
		}
	default:
		return end, err, k
	}
	return goOn, nil, k + 1
}

// blamed returns the pending member whose held write failed, or nil.
func (r *batchRun) blamed() *memberMark {
	for _, p := range r.pending {
		if p.id == r.t.heldOwner {
			return p
		}
	}
	return nil
}

// blame answers the pending member whose held write failed with err (its
// savepoint is rolled back by now) and returns where the attempt goes on:
// every member after it runs again, none of what they did having reached
// the server in its savepoint.
func (r *batchRun) blame(err error) int {
	p := r.blamed()
	r.ends[p.index], r.errs[p.index] = memberRefused, classify(err)
	r.pending = r.pending[:0]
	for _, i := range r.todo[p.at+1:] {
		delete(r.ends, i)
	}
	return p.at + 1
}

// culprit is the member a batchEnded blames: a pending member whose held
// write failed, else the one that ran, i.
func (r *batchRun) culprit(i int) int {
	if p := r.blamed(); p != nil {
		return p.index
	}
	return i
}

// endedBy rolls back a transaction a member's failure ended: culprit gets
// err, every other member of todo runs again.
func endedBy(conn *sql.Conn, todo []int, culprit int, err error, errs []error) (a attempt) {
	rollback(conn)
	errs[culprit] = classify(err)
	for _, j := range todo {
		if j != culprit {
			errs[j] = nil
			a.rerun = append(a.rerun, j)
		}
	}
	return a
}

// commitBatch commits the batch's transaction, whose members ended as
// ends says (witnessed by witnesses), and settles a COMMIT that lost its
// connection member by member.
func (e *Engine) commitBatch(ctx context.Context, t *Tx, ends map[int]memberEnd, witnesses map[int]witness, errs []error, deadline time.Time) attempt {
	err := e.sendCommit(ctx, t)
	a := attempt{touched: t.touched}
	if err == nil {
		return a
	}
	rollback(t.conn)
	switch {
	case retriable(err):
		a.failed = err
		return a
	case !connectionLost(err):
		lost := fmt.Errorf("%w: commit: %w", errBatchLost, err)
		for i := range ends {
			errs[i] = lost
		}
		return a
	}
	lost := fmt.Errorf("commit: %w", err)
	known := false
	for _, i := range slices.Sorted(maps.Keys(ends)) {
		if ends[i] != memberDone {
			continue
		}
		errs[i] = e.settle(ctx, witnesses[i], lost, deadline)
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
		for i, end := range ends {
			if end == memberRefused {
				errs[i] = nil
				a.rerun = append(a.rerun, i)
			}
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

// runMember runs fn as member index (todo[at]) of the batch's transaction
// t, in its own savepoint, and says how it ended. pending are the members
// before it whose held writes (and RELEASE) have not been sent yet: they
// go in one batch with this member's first statement, and should one of
// them fail, that member is taken back (pendingFailed) and every one
// after it must run again.
func (t *Tx) runMember(ctx context.Context, fn writeFn, index, at int, pending []*memberMark) (memberEnd, error, *memberMark) {
	t.member++
	me := &memberMark{index: index, at: at, id: t.member, sends: t.sends, mark: len(t.held),
		heads: maps.Clone(t.heads), workspaces: maps.Clone(t.workspaces)}
	t.witness, t.ahead, t.heldOwner = witness{}, nil, 0
	t.held = append(t.held, heldWrite{query: "SAVEPOINT " + savepoint, barrier: true, owner: me.id})
	err := fn(t)
	if t.heldErr != nil {
		err = t.heldErr // what failed first; fn saw its aftermath
	}
	t.ahead = nil
	if err == nil {
		if !t.sendsSince(me) && len(t.held) == me.mark+1 {
			t.held = t.held[:me.mark] // it wrote nothing: no savepoint to keep
			return memberDone, nil, me
		}
		// Sent with what comes next: the next member's first statement,
		// or flush.
		t.held = append(t.held, heldWrite{query: "RELEASE SAVEPOINT " + savepoint, barrier: true, owner: me.id})
		return memberDone, nil, me
	}
	if retriable(err) || connectionLost(err) {
		return batchFailed, err, me
	}
	if t.heldErr != nil {
		for _, p := range pending {
			if p.id == t.heldOwner {
				return t.takeBlame(ctx, p, err), err, me
			}
		}
	}
	if !t.sendsSince(me) {
		t.held = t.held[:me.mark] // nothing of it reached the server
		t.restore(me)
		return memberRefused, err, me
	}
	end, err := t.takeBack(ctx, me, err)
	return end, err, me
}

// flush sends the held writes and RELEASE of the pending members, so that
// a failure is the answer of the member whose write failed.
func (t *Tx) flush(ctx context.Context, pending []*memberMark) (memberEnd, error) {
	t.heldOwner = 0
	_, err := t.pipeline(ctx, nil, false)
	switch {
	case err == nil:
		return memberDone, nil
	case retriable(err) || connectionLost(err):
		return batchFailed, err
	}
	for _, p := range pending {
		if p.id == t.heldOwner {
			return t.takeBlame(ctx, p, err), err
		}
	}
	return batchEnded, err // a failure nobody held: cannot happen
}

// takeBlame rolls back pending member p, whose held write failed with
// err: pendingFailed, or how rolling back failed.
func (t *Tx) takeBlame(ctx context.Context, p *memberMark, err error) memberEnd {
	end, _ := t.takeBack(ctx, p, err)
	if end == memberRefused {
		return pendingFailed
	}
	return end
}

// takeBack rolls back the savepoint of member m, the innermost one open,
// whose failure err was, and puts the transaction's caches back to what
// they were before m.
func (t *Tx) takeBack(ctx context.Context, m *memberMark, err error) (memberEnd, error) {
	t.restore(m)
	t.held, t.heldErr = nil, nil // what is still held came after the failure
	t.trip()
	if _, rerr := t.conn.ExecContext(ctx, "ROLLBACK TO SAVEPOINT "+savepoint+"; RELEASE SAVEPOINT "+savepoint); rerr != nil {
		if connectionLost(rerr) {
			return batchFailed, rerr
		}
		return batchEnded, err
	}
	return memberRefused, err
}

// restore puts the transaction's caches back to what they were before m.
func (t *Tx) restore(m *memberMark) {
	t.heads, t.workspaces, t.witness = maps.Clone(m.heads), maps.Clone(m.workspaces), witness{}
}

// sendsSince reports whether the transaction sent a batch since m began,
// its savepoint with it.
func (t *Tx) sendsSince(m *memberMark) bool { return t.sends != m.sends }

// holdsFor reports whether the last write held is m's own (its RELEASE).
func (t *Tx) holdsFor(m *memberMark) bool {
	return len(t.held) > 0 && t.held[len(t.held)-1].owner == m.id
}
