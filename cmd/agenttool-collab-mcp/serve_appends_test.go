package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// serveAppends is a load on one `serve --http` process: clients, each
// with a token and a session of its own, append reports to one workspace
// as fast as they are answered, until stopped or until the server is gone.
// What they were answered for is in the ledger (report.posted by report
// id), with every call's latency.
type serveAppends struct {
	t       testing.TB
	srv     *httpServer
	ws      string
	ledger  *loadLedger
	callers []caller
	stop    chan struct{}
	wg      sync.WaitGroup
	// mu guards acks, whose changes cond announces.
	mu   sync.Mutex
	cond *sync.Cond
	acks int
}

// startServeAppends starts a serve process on the sandbox's database and
// opens n clients of it on the repository repo (each with its own token),
// ready to append to its workspace. round keeps idempotency keys and
// actors apart across the server processes of one test.
func startServeAppends(t testing.TB, sb *sandbox, repo string, n, round int) *serveAppends {
	t.Helper()
	srv := sb.serveHTTP()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	a := &serveAppends{t: t, srv: srv, ledger: newLoadLedger(), stop: make(chan struct{})}
	a.cond = sync.NewCond(&a.mu)
	tokens := make([]string, n)
	for i := range tokens {
		tokens[i] = serverToken(t, sb, fmt.Sprintf("appender-%d-%d", round, i))
	}
	a.callers = make([]caller, n)
	for i := range a.callers {
		c := srv.client(ctx, tokens[i], "")
		a.callers[i] = func(tool string, args map[string]any) (mcptest.Result, error) { return c.Call(ctx, tool, args) }
	}
	r, err := a.callers[0]("collab_workspace_open", map[string]any{"root_path": repo, "actor": "setup"})
	if err != nil || r.IsError {
		t.Fatalf("workspace_open: %v %s", err, r.Raw)
	}
	a.ws = str(r.Structured, "workspace.id")
	// Sessions start eight at a time: each runs Git, which is most of
	// the setup's time.
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, call := range a.callers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			a.ledger.timed(call, "collab_session_start", map[string]any{"root_path": repo,
				"actor": fmt.Sprintf("appender-%d-%d", round, i)})
		}()
	}
	wg.Wait()
	if len(a.ledger.failures) > 0 || len(a.ledger.latency["collab_session_start"]) != n {
		t.Fatalf("session_start: %v", a.ledger.failures)
	}
	a.ledger.latency = map[string][]time.Duration{}
	return a
}

// run starts every client appending; halt stops them.
func (a *serveAppends) run(round int) {
	for i, call := range a.callers {
		a.wg.Add(1)
		go func() {
			defer a.wg.Done()
			for n := 0; ; n++ {
				select {
				case <-a.stop:
					return
				default:
				}
				r, code := a.ledger.timed(call, "collab_report_append", map[string]any{"workspace_id": a.ws,
					"idempotency_key": fmt.Sprintf("r%d-c%d-%d", round, i, n), "kind": "observation",
					"body": fmt.Sprintf("round %d, client %d, report %d", round, i, n)})
				if code == "transport" || code == "rpc" {
					return // the server is gone (or broken: the ledger says so)
				}
				if code != "" {
					continue
				}
				a.ledger.ack("report.posted", str(r, "report.id"))
				a.mu.Lock()
				a.acks++
				a.cond.Broadcast()
				a.mu.Unlock()
			}
		}()
	}
}

// waitAcks returns once at least n appends have been answered, or all
// clients have stopped.
func (a *serveAppends) waitAcks(n int) {
	done := make(chan struct{})
	go func() { a.wg.Wait(); a.mu.Lock(); close(done); a.cond.Broadcast(); a.mu.Unlock() }()
	a.mu.Lock()
	defer a.mu.Unlock()
	for a.acks < n {
		select {
		case <-done:
			return
		default:
		}
		a.cond.Wait()
	}
}

// halt stops the clients and waits for their last calls.
func (a *serveAppends) halt() {
	select {
	case <-a.stop:
	default:
		close(a.stop)
	}
	a.wg.Wait()
}

// window measures the load for d: appends answered per second, and the
// 99th percentile of their latency in milliseconds.
func (a *serveAppends) window(d time.Duration) (perSecond, p99ms float64) {
	a.ledger.mu.Lock()
	a.ledger.latency = map[string][]time.Duration{}
	a.ledger.mu.Unlock()
	a.mu.Lock()
	before := a.acks
	a.mu.Unlock()
	start := time.Now()
	time.Sleep(d) // the measurement window itself, not a synchronisation
	a.mu.Lock()
	acks := a.acks - before
	a.mu.Unlock()
	elapsed := time.Since(start)
	a.ledger.mu.Lock()
	ds := append([]time.Duration(nil), a.ledger.latency["collab_report_append"]...)
	a.ledger.mu.Unlock()
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	if len(ds) > 0 {
		p99ms = float64(ds[(len(ds)*99)/100]) / float64(time.Millisecond)
	}
	return float64(acks) / elapsed.Seconds(), p99ms
}

// unjournalled counts the reports the clients were answered for that the
// journal does not hold exactly once.
func (a *serveAppends) unjournalled(db *sql.DB) (acked, lost int) {
	a.t.Helper()
	a.ledger.mu.Lock()
	defer a.ledger.mu.Unlock()
	for id := range a.ledger.acked["report.posted"] {
		var n int
		if err := db.QueryRow(inspect(db, "SELECT count(*) FROM events WHERE workspace_id = ? AND type = 'report.posted' AND entity_id = ?"),
			a.ws, id).Scan(&n); err != nil {
			a.t.Fatal(err)
		}
		acked++
		if n != 1 {
			lost++
		}
	}
	return acked, lost
}

// serverToken runs `token add NAME` as a process of the sandbox, so that
// the token lands where the sandbox's servers look for it: in the file of
// a SQLite database, beside the sandbox's local data for PostgreSQL.
func serverToken(t testing.TB, sb *sandbox, name string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "token", "add", name, "--db", sb.db)
	cmd.Env = sb.env()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("token add %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}
