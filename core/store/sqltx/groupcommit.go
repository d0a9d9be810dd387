package sqltx

import (
	"context"
	"errors"
	"sync"
)

// Group commit: the concurrent writes of one process share a transaction.
//
// Each Write joins a queue. The first writer to find no batch running
// leads: it takes whoever is queued (itself first, up to MaxBatch), runs
// them through the engine as one batch, answers each of them, and hands
// the lead to the first writer still queued, if any, before returning its
// own answer. A lone writer therefore never waits for company: it finds
// the queue empty, leads a batch of one, and runs on its own goroutine
// with no hand-off, exactly as a write did before batching. Under
// contention the writers that queued while a batch ran form the next one,
// so one COMMIT (one fsync, one lock hand-over between processes) serves
// them all.
//
// A writer whose ctx ends while it is still queued leaves the queue and
// returns ctx's error: nothing of it ran. Once a batch has taken it, it
// waits for that batch's answer, which the engine gives only after the
// batch's COMMIT (see the engines' runBatch), so an answer of nil always
// means durable. The engine runs the batch under BatchContext, which ends
// only when every member's ctx has ended, so that one member leaving does
// not cancel the others' statements.

// DefaultMaxBatch bounds a batch: enough to fill one COMMIT with every
// writer a busy process has, few enough that one batch holds the write
// lock of a shared SQLite file for a bounded time.
const DefaultMaxBatch = 64

// Member is one write waiting in, or running in, a batch.
type Member[F any] struct {
	// Ctx is the writer's context; Fn its function.
	Ctx context.Context
	Fn  F
	// answer receives the writer's outcome, or the lead.
	answer chan answer
	// promoted is set, under the group's lock, when the lead is handed to
	// this member: it may then no longer leave the queue on its own.
	promoted bool
}

type answer struct {
	err  error
	lead bool
}

// Group batches the writes of one engine. Its zero value is ready to use
// (batches of DefaultMaxBatch); it is safe for concurrent use and must not
// be copied after first use.
type Group[F any] struct {
	// MaxBatch bounds the members of one batch; zero means
	// DefaultMaxBatch.
	MaxBatch int

	mu      sync.Mutex
	queue   []*Member[F]
	leading bool
}

// Do runs fn in a batch through run and returns fn's outcome. run gets the
// members of one batch, in the order they queued, and returns one error
// per member (nil for a member whose write is committed and durable); it
// is called by one goroutine at a time.
func (g *Group[F]) Do(ctx context.Context, fn F, run func(batch []*Member[F]) []error) error {
	m := &Member[F]{Ctx: ctx, Fn: fn, answer: make(chan answer, 1)}
	g.mu.Lock()
	g.queue = append(g.queue, m)
	if !g.leading {
		g.leading = true
		g.mu.Unlock()
		return g.lead(run)
	}
	g.mu.Unlock()
	var a answer
	select {
	case a = <-m.answer:
	case <-ctx.Done():
		if g.leave(m) {
			return ctx.Err()
		}
		a = <-m.answer
	}
	if a.lead {
		return g.lead(run)
	}
	return a.err
}

// Queued is how many writes wait for a batch (not those of the batch
// running); for tests and metrics.
func (g *Group[F]) Queued() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.queue)
}

// leave takes m out of the queue, unless a batch has taken it or it was
// handed the lead, and reports whether it did.
func (g *Group[F]) leave(m *Member[F]) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if m.promoted {
		return false
	}
	for i, q := range g.queue {
		if q == m {
			g.queue = append(g.queue[:i], g.queue[i+1:]...)
			return true
		}
	}
	return false
}

// lead runs one batch, whose first member is the caller (the queue's head
// is always the leader), answers the others, hands the lead on, and
// returns the caller's own outcome.
func (g *Group[F]) lead(run func(batch []*Member[F]) []error) error {
	limit := g.MaxBatch
	if limit <= 0 {
		limit = DefaultMaxBatch
	}
	g.mu.Lock()
	n := min(len(g.queue), limit)
	batch := append([]*Member[F](nil), g.queue[:n]...)
	g.queue = append(g.queue[:0], g.queue[n:]...)
	g.mu.Unlock()

	errs := g.runGuarded(batch, run)
	for i, m := range batch[1:] {
		m.answer <- answer{err: errs[i+1]}
	}
	g.handOn()
	return errs[0]
}

// errBatchPanicked answers the members of a batch whose run panicked.
var errBatchPanicked = errors.New("another write of the same batch panicked; nothing of this write was committed")

// runGuarded runs the batch; should run panic, the other members are
// answered, the lead is handed on, and the panic goes on up the leader's
// stack, so that one write's panic (which a server may recover from)
// never leaves the others waiting for ever.
func (g *Group[F]) runGuarded(batch []*Member[F], run func(batch []*Member[F]) []error) []error {
	done := false
	defer func() {
		if done {
			return
		}
		for _, m := range batch[1:] {
			m.answer <- answer{err: errBatchPanicked}
		}
		g.handOn()
	}()
	errs := run(batch)
	done = true
	return errs
}

// handOn gives the lead to the first queued write, or ends the leading.
func (g *Group[F]) handOn() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.queue) == 0 {
		g.leading = false
		return
	}
	next := g.queue[0]
	next.promoted = true
	next.answer <- answer{lead: true}
}

// BatchContext returns a context for the statements of a batch: it carries
// parent's values, is not cancelled by parent, and ends once the ctx of
// every member has ended (or at once for an empty batch), so that no
// member's leaving cancels a statement another member waits on, and a
// batch nobody waits for any more stops its retries. stop releases it. A
// batch of one runs under its member's own ctx, as a lone write always
// did.
func BatchContext[F any](parent context.Context, batch []*Member[F]) (ctx context.Context, stop func()) {
	if len(batch) == 1 {
		return batch[0].Ctx, func() {}
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	var mu sync.Mutex
	live := len(batch)
	if live == 0 {
		cancel()
	}
	stops := make([]func() bool, 0, len(batch))
	for _, m := range batch {
		stops = append(stops, context.AfterFunc(m.Ctx, func() {
			mu.Lock()
			defer mu.Unlock()
			if live--; live == 0 {
				cancel()
			}
		}))
	}
	return ctx, func() {
		for _, s := range stops {
			s()
		}
		cancel()
	}
}
