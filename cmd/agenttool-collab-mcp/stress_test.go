package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// TestManyProcessesLoseNothingUnderContention runs many server processes
// on one database, each bound to its own session, doing a random mix of
// report appends, task create/claim/progress/complete/review, handoffs,
// polls with acknowledgements, presence heartbeats and idempotent replays.
// Afterwards every acknowledged write is in the journal exactly once, the
// journal is gapless and verifies, no task was ever held by two live
// leases, no mutation is half-applied, and no client ever saw a locked
// database. Sized by COLLAB_STRESS (CI: 8 processes for 3 s; full: 16 for
// 10 s) or exactly by COLLAB_STRESS_PROCS and COLLAB_STRESS_SECONDS. It
// runs on each engine (journalEngines) with the same assertions.
func TestManyProcessesLoseNothingUnderContention(t *testing.T) {
	for _, e := range journalEngines {
		t.Run(e.name, func(t *testing.T) { testManyProcessesLoseNothing(t, e) })
	}
}

func testManyProcessesLoseNothing(t *testing.T, e journalEngine) {
	procs, duration := stressSize(t)
	s := newSandbox(t)
	e.setup(t, s)
	repo := s.repo("main", map[string]string{"src/a.go": "package a\n", "docs/readme.md": "docs\n"})
	sh := &stressShared{ledger: &ackLedger{}, book: newOutcomeBook()}
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	clients, sessions := startStressSessions(t, s, repo, procs, sh)
	sh.sessions = sessions

	start := time.Now()
	deadline := start.Add(duration)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func(w *stressWorker) {
			defer wg.Done()
			w.run(deadline)
		}(newStressWorker(i, c, sessions[i], sh, seed))
	}
	wg.Wait()
	elapsed := time.Since(start)
	for _, c := range clients {
		if code := c.Close(); code != 0 {
			t.Errorf("a server exited with status %d: %s", code, c.Stderr())
		}
	}
	t.Logf("%d processes, %s: %d acknowledged writes (%.0f/s), %d race refusals\n%s", procs, elapsed.Round(time.Millisecond),
		len(sh.ledger.writes), float64(len(sh.ledger.writes))/elapsed.Seconds(), sh.book.refusals(), sh.book.summary())
	requireNoFailures(t, sh.book)
	if len(sh.ledger.writes) < procs {
		t.Fatalf("only %d writes were acknowledged; the workload did not run", len(sh.ledger.writes))
	}
	requireVerifiedJournal(t, s, sh.ws)
	db := openDB(t, s.db)
	requireStructuralInvariants(t, db)
	sh.ledger.requireEachExactlyOnce(t, db)
	requireNoOverlappingLeases(t, db, sh.ws)
}

// startStressSessions starts n processes at once, each starting its own
// session in repo (so the first open of the workspace is itself raced).
func startStressSessions(t *testing.T, s *sandbox, repo string, n int, sh *stressShared) ([]*mcptest.Client, []string) {
	t.Helper()
	clients := make([]*mcptest.Client, n)
	sessions := make([]string, n)
	workspaces := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c, err := mcptest.Start([]string{os.Args[0]}, s.env())
			if err != nil {
				errs[i] = err
				return
			}
			clients[i] = c
			r, err := c.Call("collab_session_start", map[string]any{"root_path": repo, "actor": fmt.Sprintf("agent-%d", i)})
			if err != nil || r.IsError {
				errs[i] = fmt.Errorf("session start: %v %s", err, r.Raw)
				return
			}
			sessions[i], workspaces[i] = str(r.Structured, "session.id"), str(r.Structured, "workspace.id")
		}(i)
	}
	wg.Wait()
	for i, c := range clients {
		if c != nil {
			t.Cleanup(func() { c.Close() })
		}
		if errs[i] != nil {
			t.Fatalf("process %d: %v", i, errs[i])
		}
		if workspaces[i] != workspaces[0] {
			t.Fatalf("concurrent session starts in one repository opened two workspaces: %v", workspaces)
		}
	}
	sh.ws = workspaces[0]
	return clients, sessions
}

// requireNoFailures fails the test with the first recorded failures.
func requireNoFailures(t *testing.T, b *outcomeBook) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.failures) == 0 {
		return
	}
	shown := b.failures
	if len(shown) > 10 {
		shown = shown[:10]
	}
	t.Fatalf("%d calls failed; first:\n%s", len(b.failures), strings.Join(shown, "\n"))
}

// requireVerifiedJournal verifies the workspace's chain in a fresh process,
// which also proves the database opens and passes startup verification.
func requireVerifiedJournal(t *testing.T, s *sandbox, ws string) {
	t.Helper()
	c := s.start()
	if v := ok(t, c, "collab_journal_verify", map[string]any{"workspace_id": ws}); v["chain_valid"] != true {
		t.Fatalf("journal of %s does not verify: %v", ws, v)
	}
	c.Close()
}
