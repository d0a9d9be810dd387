// Package historygen writes long, realistic collab journals quickly, for
// benchmarks that ask how a call's cost grows with history. Every event is
// written by the coordination rules of package store through a real
// engine (sessions started and ended, tasks created, claimed with their
// path scopes, progressed, handed off and completed, reports posted to
// the team and to one session, independence claims taken and ended by
// the claimant's finding), so the rows, the journal bytes and the hash
// chain are exactly what a server would have written. Two things make a
// million events take minutes instead of hours: the COMMIT is shared by
// many mutations (batch.go), and two reads of the rules that scan history
// are answered from what the generator wrote (knownreads.go).
package historygen

import (
	"context"
	"fmt"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// Options say what to generate.
type Options struct {
	// Path is the SQLite file to create (it must not hold a journal yet).
	Path string
	// Root is the workspace's directory, a Git repository with a commit;
	// a server later started there finds the generated workspace.
	Root string
	// Events is how many events the journal holds at the end (at least;
	// the last mutation may pass it by a few).
	Events int64
	// BatchEvents is about how many events share one commit; zero means
	// 20,000. The first batches are smaller (500 events, doubling up to
	// BatchEvents): the engine prepares the statements a transaction
	// used only once it has ended, so a first batch of a million events
	// would parse every statement anew on every use.
	BatchEvents int64
	// Start is the clock of the first event; zero means 2026-01-01 UTC.
	// Each mutation advances the clock by Step (zero means 3 s).
	Start time.Time
	Step  time.Duration

	// checkReads compares every answer of the known reads with the
	// engine's (knownreads.go); for the test that proves them exact.
	checkReads bool
}

// Result is what Generate wrote.
type Result struct {
	WorkspaceID string
	Events      int64
	Head        journal.Anchor
	Elapsed     time.Duration

	served map[string]int // known reads answered (knownreads.go)
}

// Generate writes a journal of about opts.Events events at opts.Path.
func Generate(ctx context.Context, opts Options) (Result, error) {
	began := time.Now()
	clock := newClock(opts.Start, opts.Step)
	observe := memoObserve(new(gitstate.Observer).InspectAndCapture)
	be, cfg, err := backend.OpenBackend(ctx, backend.Options{Path: opts.Path, Now: clock.now, Observe: observe,
		Capture: memoCapture(gitstate.Capture)})
	if err != nil {
		return Result{}, fmt.Errorf("open %s: %w", opts.Path, err)
	}
	bb := &batchBackend{Backend: be, known: newKnown(opts.checkReads)}
	st := store.New(bb, cfg)
	defer st.Close()
	m := &mix{st: st, root: opts.Root}
	if err := m.openTeam(ctx); err != nil {
		return Result{}, err
	}
	per := opts.BatchEvents
	if per <= 0 {
		per = 20000
	}
	for size := min(per, 500); m.head < opts.Events; size = min(2*size, per) {
		goal := min(m.head+size, opts.Events)
		err := bb.batch(ctx, func() error {
			for m.head < goal {
				if err := m.round(ctx); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return Result{}, fmt.Errorf("generate events %d…%d: %w", m.head, goal, err)
		}
	}
	if err := bb.batch(ctx, func() error { return m.endTeam(ctx) }); err != nil {
		return Result{}, err
	}
	w, err := st.Workspace(ctx, m.ws)
	if err != nil {
		return Result{}, err
	}
	return Result{WorkspaceID: m.ws, Events: m.head, Elapsed: time.Since(began), served: bb.known.served,
		Head: journal.Anchor{EpochID: w.EpochID, Sequence: w.EventHeadSequence, Hash: w.EventHeadHash}}, nil
}

// clock is the generator's store clock: each reading is Step after the
// previous one, so timestamps are strictly increasing and leases taken a
// few mutations ago are still live.
type clock struct {
	t    time.Time
	step time.Duration
}

func newClock(start time.Time, step time.Duration) *clock {
	if start.IsZero() {
		start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if step <= 0 {
		step = 3 * time.Second
	}
	return &clock{t: start, step: step}
}

func (c *clock) now() time.Time {
	c.t = c.t.Add(c.step)
	return c.t
}

// memoObserve asks Git once per directory: the repository does not change
// while the generator runs, and a million Git processes would take hours.
func memoObserve(real func(ctx context.Context, root, key string) (gitstate.Identity, gitstate.Checkpoint, error)) func(ctx context.Context, root, key string) (gitstate.Identity, gitstate.Checkpoint, error) {
	type seen struct {
		id gitstate.Identity
		cp gitstate.Checkpoint
	}
	memo := map[string]seen{}
	return func(ctx context.Context, root, key string) (gitstate.Identity, gitstate.Checkpoint, error) {
		if s, ok := memo[root+"\x00"+key]; ok {
			return s.id, s.cp, nil
		}
		id, cp, err := real(ctx, root, key)
		if err == nil {
			memo[root+"\x00"+key] = seen{id, cp}
		}
		return id, cp, err
	}
}

// memoCapture is memoObserve for checkpoints of a known worktree.
func memoCapture(real func(ctx context.Context, id gitstate.Identity) gitstate.Checkpoint) func(ctx context.Context, id gitstate.Identity) gitstate.Checkpoint {
	memo := map[string]gitstate.Checkpoint{}
	return func(ctx context.Context, id gitstate.Identity) gitstate.Checkpoint {
		if cp, ok := memo[id.RootPath]; ok {
			return cp
		}
		cp := real(ctx, id)
		memo[id.RootPath] = cp
		return cp
	}
}
