package main

import (
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// drillPassword travels in every drill's database URL; the test server
// trusts local connections and never checks it, so its only use is to
// prove that no result, error or log line shows it.
const drillPassword = "pw-drill-9Xq-never-shown"

// withPassword returns the URL with drillPassword (and user, when not
// empty) as its userinfo.
func withPassword(t *testing.T, raw, user string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if user == "" {
		user = u.User.Username()
	}
	u.User = url.UserPassword(user, drillPassword)
	return u.String()
}

// pgBurst is several clients of one journal (each a stdio server process,
// or an HTTP client of a `serve`), each under its own session, appending
// reports with fresh idempotency keys until stopped.
// A worker repeats a key until the server acknowledges it, so a call
// whose outcome the client cannot know (a lost connection) is replayed
// with the same key, as the tools' contract asks. The test waits on its
// counters (waitUntil), which move only when a worker hears an answer.
type pgBurst struct {
	t  *testing.T
	s  *sandbox
	ws string
	// calls are the workers' clients; clients, for a stdio burst, are
	// the server processes behind them.
	calls   []caller
	clients []*mcptest.Client
	ledger  *ackLedger
	// accept says whether a refusal is one the drill expects while it
	// disturbs the servers; the worker then calls afterError (which may
	// wait, until stop at most) and repeats the same key.
	accept     func(r mcptest.Result) bool
	afterError func(worker int, stop <-chan struct{})
	stop       chan struct{}
	wg         sync.WaitGroup

	mu      sync.Mutex
	cond    *sync.Cond
	acks    []int
	refused []int
	gone    []bool // the worker's server stopped answering
	running int
	seen    []string // accepted refusals' messages
	bad     []string
}

// startPgBurst starts n servers in a fresh repository of s and their
// workers. accept and afterError may be nil (no refusal is expected).
func startPgBurst(t *testing.T, s *sandbox, n int, accept func(mcptest.Result) bool, afterError func(int, <-chan struct{})) *pgBurst {
	t.Helper()
	repo := s.repo("main", map[string]string{"a.go": "package a\n"})
	sh := &stressShared{ledger: &ackLedger{}, book: newOutcomeBook()}
	clients, _ := startStressSessions(t, s, repo, n, sh)
	calls := make([]caller, n)
	for i, c := range clients {
		calls[i] = c.Call
	}
	b := startBurst(t, s, sh.ws, calls, accept, afterError)
	b.clients = clients
	return b
}

// startBurst starts a worker for each of calls, clients whose sessions
// are already bound in workspace ws of s's journal. accept and afterError
// are startPgBurst's.
func startBurst(t *testing.T, s *sandbox, ws string, calls []caller, accept func(mcptest.Result) bool, afterError func(int, <-chan struct{})) *pgBurst {
	t.Helper()
	if accept == nil {
		accept = func(mcptest.Result) bool { return false }
	}
	if afterError == nil {
		afterError = func(int, <-chan struct{}) {}
	}
	n := len(calls)
	b := &pgBurst{t: t, s: s, ws: ws, calls: calls, ledger: &ackLedger{}, accept: accept, afterError: afterError,
		stop: make(chan struct{}), acks: make([]int, n), refused: make([]int, n), gone: make([]bool, n), running: n}
	b.cond = sync.NewCond(&b.mu)
	for i := range calls {
		b.wg.Add(1)
		go b.work(i)
	}
	t.Cleanup(b.halt)
	return b
}

func (b *pgBurst) stopped() bool {
	select {
	case <-b.stop:
		return true
	default:
		return false
	}
}

// work appends reports until the pgBurst stops or the server is gone.
func (b *pgBurst) work(i int) {
	defer b.wg.Done()
	defer b.note(func() { b.running-- })
	call := b.calls[i]
	for n := 0; !b.stopped(); n++ {
		key := fmt.Sprintf("drill-%d-%d", i, n)
		for !b.stopped() {
			r, err := call("collab_report_append", map[string]any{"workspace_id": b.ws, "idempotency_key": key,
				"kind": "proposal", "body": fmt.Sprintf("worker %d, report %d", i, n)})
			if err != nil {
				b.note(func() { b.gone[i] = true })
				return
			}
			if !r.IsError {
				b.ledger.add(ackedWrite{typ: "report.posted", entity: str(r.Structured, "report.id")})
				b.note(func() { b.acks[i]++ })
				break
			}
			msg, _ := r.Structured["message"].(string)
			if !b.accept(r) {
				b.note(func() { b.bad = append(b.bad, fmt.Sprintf("worker %d: unexpected refusal %s", i, r.Raw)) })
				return
			}
			b.note(func() { b.refused[i]++; b.seen = append(b.seen, r.Code()+": "+msg) })
			b.afterError(i, b.stop)
		}
	}
}

// note changes the counters under the lock and wakes waitUntil.
func (b *pgBurst) note(change func()) {
	b.mu.Lock()
	change()
	b.mu.Unlock()
	b.cond.Broadcast()
}

// waitUntil waits until cond (called under the lock with the counters)
// holds, failing the test at once on an unexpected outcome, or when every
// worker has ended and cond still does not hold.
func (b *pgBurst) waitUntil(what string, cond func() bool) {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for !cond() {
		if len(b.bad) > 0 {
			b.t.Fatalf("while waiting until %s: %s", what, strings.Join(b.bad, "\n"))
		}
		if b.running == 0 {
			b.t.Fatalf("every worker ended before %s (acks %v, refusals %v, gone %v)", what, b.acks, b.refused, b.gone)
		}
		b.cond.Wait()
	}
}

// progressed returns a condition that holds once every worker in who has
// been acknowledged more times than it had been when progressed was called.
func (b *pgBurst) progressed(who []int, more int) func() bool {
	b.mu.Lock()
	base := append([]int(nil), b.acks...)
	b.mu.Unlock()
	return func() bool {
		for _, i := range who {
			if b.acks[i] < base[i]+more {
				return false
			}
		}
		return true
	}
}

// all lists every worker's index.
func (b *pgBurst) all() []int {
	out := make([]int, len(b.calls))
	for i := range out {
		out[i] = i
	}
	return out
}

// halt stops the workers and waits for them; it is safe to call twice.
func (b *pgBurst) halt() {
	if !b.stopped() {
		close(b.stop)
	}
	b.wg.Wait()
}

// finish stops the pgBurst and checks what every drill promises: no
// unexpected refusal, every server that was not killed still answering
// and exiting cleanly, no secret in any message or log, every
// acknowledged report in the journal exactly once, the journal gapless,
// linked and verifying. It returns the accepted refusals' messages.
func (b *pgBurst) finish(killed ...int) []string {
	b.t.Helper()
	b.halt()
	if len(b.bad) > 0 {
		b.t.Fatalf("unexpected outcomes:\n%s", strings.Join(b.bad, "\n"))
	}
	for i := range b.calls {
		wasKilled := false
		for _, k := range killed {
			wasKilled = wasKilled || k == i
		}
		if wasKilled {
			continue
		}
		if b.gone[i] {
			b.t.Errorf("worker %d's server stopped answering", i)
		}
		if i >= len(b.clients) {
			continue
		}
		c := b.clients[i]
		if b.gone[i] {
			b.t.Errorf("server %d's stderr: %s", i, c.Stderr())
		}
		if strings.Contains(c.Stderr(), drillPassword) {
			b.t.Errorf("server %d logged the password: %s", i, c.Stderr())
		}
		if code := c.Close(); code != 0 {
			b.t.Errorf("server %d exited with status %d: %s", i, code, c.Stderr())
		}
	}
	for _, m := range b.seen {
		if strings.Contains(m, drillPassword) {
			b.t.Errorf("a refusal shows the password: %s", m)
		}
	}
	b.t.Logf("acknowledged %v, refused %v; %d refusals, first: %v", b.acks, b.refused, len(b.seen), first(b.seen, 3))
	requireVerifiedJournal(b.t, b.s, b.ws)
	db := openDB(b.t, b.s.db)
	requireStructuralInvariants(b.t, db)
	b.ledger.requireEachExactlyOnce(b.t, db)
	return b.seen
}

func first(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
