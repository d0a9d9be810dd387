package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/core/stress"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// caller runs one tool call for a load client, over HTTP or stdio.
type caller func(tool string, args map[string]any) (mcptest.Result, error)

// loadLedger is what the clients were told was written.
type loadLedger struct {
	mu       sync.Mutex
	acked    map[string]map[string]bool // event type -> entity ids acknowledged
	winners  map[string]int             // contested task -> successful claims
	latency  map[string][]time.Duration
	failures []string
}

func newLoadLedger() *loadLedger {
	return &loadLedger{acked: map[string]map[string]bool{}, winners: map[string]int{}, latency: map[string][]time.Duration{}}
}

func (l *loadLedger) ack(typ, entity string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.acked[typ] == nil {
		l.acked[typ] = map[string]bool{}
	}
	l.acked[typ][entity] = true
}

// timed runs one call, records its latency, and returns its structured
// result when it succeeded.
func (l *loadLedger) timed(call caller, tool string, args map[string]any) (map[string]any, string) {
	start := time.Now()
	r, err := call(tool, args)
	took := time.Since(start)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.latency[tool] = append(l.latency[tool], took)
	if err != nil {
		l.failures = append(l.failures, fmt.Sprintf("%s: %v", tool, err))
		return nil, "transport"
	}
	if r.RPCError != nil {
		l.failures = append(l.failures, fmt.Sprintf("%s: %s", tool, r.Raw))
		return nil, "rpc"
	}
	if r.IsError {
		return nil, r.Code()
	}
	return r.Structured, ""
}

// loadClient runs the mixed write load of one client: a bound session,
// then per round a report, a task, a contested claim (released when won),
// and a next/ack.
func loadClient(l *loadLedger, call caller, id int, repo, ws string, contested []contestedTask) {
	started, code := l.timed(call, "collab_session_start", map[string]any{"root_path": repo, "actor": fmt.Sprintf("load-%d", id)})
	if code != "" {
		l.mu.Lock()
		l.failures = append(l.failures, "session_start: "+code)
		l.mu.Unlock()
		return
	}
	_ = started
	for round, task := range contested {
		key := func(what string) string { return fmt.Sprintf("c%d-r%d-%s", id, round, what) }
		if r, code := l.timed(call, "collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": key("report"),
			"kind": "observation", "body": fmt.Sprintf("client %d round %d", id, round)}); code == "" {
			l.ack("report.posted", str(r, "report.id"))
		}
		if r, code := l.timed(call, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": key("task"),
			"title": fmt.Sprintf("task of client %d round %d", id, round)}); code == "" {
			l.ack("task.created", str(r, "task.id"))
		}
		if r, code := l.timed(call, "collab_task_claim", map[string]any{"workspace_id": ws, "idempotency_key": key("claim"),
			"task_id": task.id, "expected_version": task.version}); code == "" {
			l.mu.Lock()
			l.winners[task.id]++
			l.mu.Unlock()
			l.ack("task.claimed", task.id)
			if _, code := l.timed(call, "collab_task_release", map[string]any{"workspace_id": ws, "idempotency_key": key("release"),
				"task_id": task.id, "lease_id": str(r, "task.lease_id"), "expected_version": num(r, "task.version")}); code == "" {
				l.ack("task.released", task.id)
			}
		}
		if r, code := l.timed(call, "collab_next", map[string]any{"workspace_id": ws, "event_limit": 50}); code == "" {
			l.timed(call, "collab_cursor_ack", map[string]any{"workspace_id": ws, "anchor": get(r, "events.next_anchor"),
				"expected_cursor_version": num(r, "session.cursor_version")})
		}
	}
}

type contestedTask struct {
	id      string
	version int64
}

// summary renders p50/p99 per tool and the total throughput.
func (l *loadLedger) summary(elapsed time.Duration) string {
	var tools []string
	total := 0
	for tool, ds := range l.latency {
		tools = append(tools, tool)
		total += len(ds)
	}
	sort.Strings(tools)
	out := fmt.Sprintf("%d calls in %v = %.0f calls/s\n", total, elapsed.Round(time.Millisecond), float64(total)/elapsed.Seconds())
	for _, tool := range tools {
		ds := append([]time.Duration(nil), l.latency[tool]...)
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		out += fmt.Sprintf("  %-22s n=%-5d p50=%-10v p99=%v\n", tool, len(ds), ds[len(ds)/2].Round(10*time.Microsecond),
			ds[(len(ds)*99)/100].Round(10*time.Microsecond))
	}
	return out
}

// check compares the journal with the ledger: every acknowledged write is
// there exactly once, the sequence is contiguous, each contested task had
// exactly one winner, and no call failed below the tool level.
func (l *loadLedger) check(t *testing.T, db, ws string, contested []contestedTask) {
	t.Helper()
	if len(l.failures) > 0 {
		t.Fatalf("%d calls failed below the tool level, first: %s", len(l.failures), l.failures[0])
	}
	f := readJournal(t, db, ws)
	if !f.contiguous {
		t.Fatal("the journal's sequence has a gap")
	}
	for typ, entities := range l.acked {
		for entity := range entities {
			if f.byType[typ][entity] == 0 {
				t.Fatalf("acknowledged %s %s is missing", typ, entity)
			}
		}
	}
	for _, typ := range []string{"report.posted", "task.created"} {
		for entity, n := range f.byType[typ] {
			if n != 1 {
				t.Fatalf("%s %s written %d times", typ, entity, n)
			}
		}
		if len(f.byType[typ]) < len(l.acked[typ]) {
			t.Fatalf("%s: journal %d < acknowledged %d", typ, len(f.byType[typ]), len(l.acked[typ]))
		}
	}
	for _, task := range contested {
		if l.winners[task.id] != 1 || f.byType["task.claimed"][task.id] != 1 {
			t.Fatalf("contested task %s: %d acknowledged winners, %d claims journalled; want exactly one",
				task.id, l.winners[task.id], f.byType["task.claimed"][task.id])
		}
	}
	verifyChain(t, db)
}

// setupContested opens the workspace and creates the tasks every client
// will race to claim.
func setupContested(t testing.TB, call caller, repo string, rounds int) (string, []contestedTask) {
	t.Helper()
	r, err := call("collab_workspace_open", map[string]any{"root_path": repo, "actor": "setup"})
	if err != nil || r.IsError {
		t.Fatalf("workspace_open: %v %s", err, r.Raw)
	}
	ws := str(r.Structured, "workspace.id")
	var tasks []contestedTask
	for i := 0; i < rounds; i++ {
		r, err := call("collab_task_create", map[string]any{"workspace_id": ws, "actor": "setup",
			"idempotency_key": fmt.Sprintf("contested-%d", i), "title": fmt.Sprintf("contested %d", i)})
		if err != nil || r.IsError {
			t.Fatalf("task_create: %v %s", err, r.Raw)
		}
		tasks = append(tasks, contestedTask{id: str(r.Structured, "task.id"), version: num(r.Structured, "task.version")})
	}
	return ws, tasks
}

// Many HTTP clients of one server write at once: nothing acknowledged is
// lost or duplicated, the chain verifies, and each contested claim has one
// winner. Sized by COLLAB_STRESS (CI: 8 clients × 2 rounds; full: 64 × 4)
// or exactly by COLLAB_HTTP_LOAD_CLIENTS / _ROUNDS; COLLAB_HTTP_LOAD_STDIO=1
// runs the same load over as many stdio processes for comparison.
func TestHTTPManyClientsLoseNothing(t *testing.T) {
	clients, rounds := stress.N(t, httpClientsEnv, httpClients), stress.N(t, httpRoundsEnv, httpRounds)
	sb := newSandbox(t)
	repo := sb.repo("load", map[string]string{"README": "x"})
	// One token per client, as in a real deployment; the per-client
	// in-flight bound (default 8) is then never reached by one client's
	// ordered calls.
	srv := sb.serveHTTP()
	tokensByClient := make([]string, clients)
	for i := range tokensByClient {
		tokensByClient[i] = sb.token(fmt.Sprintf("agent-%d", i))
	}
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	httpCaller := func(token string) caller {
		c := srv.client(ctx, token, "")
		return func(tool string, args map[string]any) (mcptest.Result, error) { return c.Call(ctx, tool, args) }
	}
	ws, contested := setupContested(t, httpCaller(tokensByClient[0]), repo, rounds)
	callers := make([]caller, clients)
	for i := range callers {
		callers[i] = httpCaller(tokensByClient[i%len(tokensByClient)])
	}
	l := newLoadLedger()
	elapsed := runLoad(l, callers, repo, ws, contested)
	t.Logf("HTTP, %d clients × %d rounds, one server process:\n%s", clients, rounds, l.summary(elapsed))
	l.check(t, sb.db, ws, contested)
	if code := srv.terminate(); code != 0 {
		t.Fatalf("serve exited %d after SIGTERM:\n%s", code, srv.stderr.String())
	}

	if os.Getenv("COLLAB_HTTP_LOAD_STDIO") != "1" {
		return
	}
	sb2 := newSandbox(t)
	repo2 := sb2.repo("load", map[string]string{"README": "x"})
	stdioCaller := func() caller {
		c := sb2.start()
		return func(tool string, args map[string]any) (mcptest.Result, error) { return c.Call(tool, args) }
	}
	ws2, contested2 := setupContested(t, stdioCaller(), repo2, rounds)
	for i := range callers {
		callers[i] = stdioCaller()
	}
	l2 := newLoadLedger()
	elapsed2 := runLoad(l2, callers, repo2, ws2, contested2)
	t.Logf("stdio, %d processes × %d rounds:\n%s", clients, rounds, l2.summary(elapsed2))
	l2.check(t, sb2.db, ws2, contested2)
}

// runLoad starts every client together and returns the wall time.
func runLoad(l *loadLedger, callers []caller, repo, ws string, contested []contestedTask) time.Duration {
	var wg sync.WaitGroup
	gate := make(chan struct{})
	for i, call := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			loadClient(l, call, i, repo, ws, contested)
		}()
	}
	start := time.Now()
	close(gate)
	wg.Wait()
	return time.Since(start)
}
