package postgres

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Writers of one workspace in one engine queue in the engine before they
// begin their transactions.
//
// Why: a SERIALIZABLE transaction reads one snapshot, taken at its first
// statement. A writer that waits for another's lock on the workspace row
// and then gets it finds the row changed since that snapshot and fails
// with 40001, and so does every writer that waited with it; of sixteen
// writers on one workspace, most attempts failed. Of two appends to one
// workspace, the second can only succeed if its snapshot follows the
// first's commit, so the writers of a workspace are served one at a time
// whatever is done; what can be saved is the failed attempts.
//
// How: an attempt that failed on a workspace runs again holding that
// workspace's turn in the engine (a one-slot semaphore), taken before
// BEGIN, so that the engine's other writers of that workspace wait for
// its commit in the engine instead of failing in the server; and while a
// workspace is busy (hotFor after its writers last met) and the engine's
// latest writes all went to it, every write of the engine takes that
// workspace's turn first. The rules name their workspace only inside the
// transaction (Head), hence the guess: an engine (a session's server)
// mostly writes to one workspace, and a wrong guess only waits behind that
// workspace's writers. Writers in other processes still meet in the server
// and run again after a backoff.
//
// Writers in other processes meet in the server: when a queued attempt
// fails anyway, queued attempts on that workspace also take its turn in
// the server for a while (serverturn.go). Taking that turn on every queued
// attempt was measured slower for writers of one process, which the
// engine's own turn already orders: each commit would hand the workspace
// on through two more round trips inside the serial section.

// hotFor is how long a workspace stays busy after its writers last met.
const hotFor = time.Second

// soleAfter is how many writes in a row must go to one workspace before
// the engine guesses that its next write goes there too: an engine whose
// writes spread over workspaces never queues a first attempt.
const soleAfter = 8

// turns hands out, per workspace, the one turn to write in this engine.
type turns struct {
	mu    sync.Mutex
	slots map[string]chan struct{}
	hot   string
	until time.Time
	last  string // the workspace of the latest write
	run   int    // how many writes in a row went to last
	// across is the workspace whose queued writers last failed anyway,
	// so met writers of other processes, and acrossUntil when that is
	// taken to have passed (serverturn.go).
	across      string
	acrossUntil time.Time
}

// take waits for the workspace's turn, or for ctx to end; the returned
// release gives it back.
func (q *turns) take(ctx context.Context, workspaceID string) (release func(), err error) {
	q.mu.Lock()
	if q.slots == nil {
		q.slots = map[string]chan struct{}{}
	}
	slot, ok := q.slots[workspaceID]
	if !ok {
		slot = make(chan struct{}, 1)
		q.slots[workspaceID] = slot
	}
	q.mu.Unlock()
	select {
	case slot <- struct{}{}:
		return func() { <-slot }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// busy returns the workspace whose writers met within hotFor when the
// engine's latest soleAfter writes all went to it, or "".
func (q *turns) busy() string {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.hot != q.last || q.run < soleAfter || time.Now().After(q.until) {
		return ""
	}
	return q.hot
}

// wrote records the workspace whose head an attempt read.
func (q *turns) wrote(workspaceID string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if workspaceID == q.last {
		q.run++
		return
	}
	q.last, q.run = workspaceID, 1
}

// met records that writers of the workspace just met.
func (q *turns) met(workspaceID string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.hot, q.until = workspaceID, time.Now().Add(hotFor)
}

// metAcross records that a queued attempt on the workspace failed anyway:
// holding the engine's turn, it can only have met a writer of another
// process.
func (q *turns) metAcross(workspaceID string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.across, q.acrossUntil = workspaceID, time.Now().Add(hotFor)
}

// acrossBusy reports whether queued attempts on the workspace met writers
// of other processes within hotFor.
func (q *turns) acrossBusy(workspaceID string) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.across == workspaceID && time.Now().Before(q.acrossUntil)
}

// writeStats counts what Write did, for tests and benchmarks.
type writeStats struct {
	commits       atomic.Int64 // transactions committed
	serialization atomic.Int64 // attempts ended by 40001
	deadlocks     atomic.Int64 // attempts ended by 40P01
	roundTrips    atomic.Int64 // statements and batches write transactions sent
}

// count records how an attempt ended.
func (s *writeStats) count(err error) {
	var pe *pgconn.PgError
	switch {
	case err == nil:
		s.commits.Add(1)
	case errors.As(err, &pe) && pe.Code == "40001":
		s.serialization.Add(1)
	case errors.As(err, &pe) && pe.Code == "40P01":
		s.deadlocks.Add(1)
	}
}
