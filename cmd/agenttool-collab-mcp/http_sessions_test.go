package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/httpserve"
	"github.com/agenttool/collab/hosts/httpserve/httpmcptest"
)

// vmRSS reads a process's resident set size in KiB from /proc/PID/status.
func vmRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kib, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("VmRSS line %q: %v", line, err)
			}
			return kib
		}
	}
	t.Fatal("no VmRSS line")
	return 0
}

// capRefusal checks that err is a session cap's answer: 429, a whole
// Retry-After of at least one second, and a JSON-RPC error with a
// non-zero code echoing the initialize request's id.
func capRefusal(err error, id int) error {
	var se *httpmcptest.StatusError
	if !errors.As(err, &se) {
		return fmt.Errorf("not an HTTP refusal: %v", err)
	}
	if se.Status != http.StatusTooManyRequests {
		return fmt.Errorf("status %d, want 429: %s", se.Status, se.Body)
	}
	if n, err := strconv.Atoi(se.Header.Get("Retry-After")); err != nil || n < 1 {
		return fmt.Errorf("Retry-After %q, want whole seconds >= 1", se.Header.Get("Retry-After"))
	}
	var body struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(se.Body), &body); err != nil || body.JSONRPC != "2.0" || body.Error.Code == 0 ||
		string(body.ID) != strconv.Itoa(id) || body.Error.Message == "" {
		return fmt.Errorf("429 body is not a JSON-RPC error with a code and the request's id: %s", se.Body)
	}
	return nil
}

// sessionFlood opens n MCP sessions per token and abandons them; it
// returns the clients admitted, and fails on any answer but success or a
// session cap's 429.
func sessionFlood(ctx context.Context, t *testing.T, srv *httpServer, tokens []string, n int) (admitted []*httpmcptest.Client, refused int) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	var bad error
	work := make(chan string)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for tok := range work {
				for range n {
					c := &httpmcptest.Client{URL: srv.url, Token: tok}
					err := c.Initialize(ctx)
					mu.Lock()
					switch {
					case err == nil:
						admitted = append(admitted, c)
					case capRefusal(err, 1) == nil:
						refused++
					case bad == nil:
						bad = capRefusal(err, 1)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, tok := range tokens {
		work <- tok
	}
	close(work)
	wg.Wait()
	if bad != nil {
		t.Fatal(bad)
	}
	return admitted, refused
}

// Ten thousand MCP sessions opened and abandoned (80 tokens x 125) leave
// the server's memory bounded: the session caps admit at most
// DefaultMaxSessions of them, every other initialize is answered 429 with
// Retry-After and a JSON-RPC error, and the resident set grows by less
// than 96 KiB per admitted session (192 MiB at the default cap; it was
// 216 KiB a session, with no cap). Ending the sessions (DELETE) gives
// their memory back for reuse: as many sessions opened again grow the
// resident set by under three quarters of what the first round took (a
// server that kept it would take as much again). The bounds leave room
// for the garbage collector's pacing, which moves RSS by a third either
// way between runs.
func TestHTTPAbandonedSessionsLeaveMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 10,000 MCP sessions")
	}
	sb := newSandbox(t)
	const clients, each = 80, 125
	tokens := make([]string, clients)
	for i := range tokens {
		tokens[i] = sb.token(fmt.Sprintf("client-%02d", i))
	}
	srv := sb.serveHTTP()
	pid := srv.cmd.Process.Pid
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	warm, _ := sessionFlood(ctx, t, srv, tokens[:1], 1)
	for _, c := range warm {
		c.Delete(ctx)
	}
	base := vmRSS(t, pid)
	admitted, refused := sessionFlood(ctx, t, srv, tokens, each)
	full := vmRSS(t, pid)
	perSession := (full - base) / int64(len(admitted))
	t.Logf("measured: RSS %d KiB before, %d KiB after %d initialize requests (%d admitted, %d answered 429): %d KiB per admitted session",
		base, full, clients*each, len(admitted), refused, perSession)
	if len(admitted) != httpserve.DefaultMaxSessions || refused != clients*each-len(admitted) {
		t.Fatalf("%d sessions admitted and %d refused of %d, want exactly the cap of %d admitted",
			len(admitted), refused, clients*each, httpserve.DefaultMaxSessions)
	}
	if limit := int64(len(admitted)) * 96; full-base > limit {
		t.Fatalf("RSS grew %d KiB for %d sessions, over the bound of %d KiB", full-base, len(admitted), limit)
	}
	for _, c := range admitted {
		if status, err := c.Delete(ctx); err != nil || status != http.StatusNoContent {
			t.Fatalf("DELETE answered %d, %v", status, err)
		}
	}
	again, _ := sessionFlood(ctx, t, srv, tokens, each)
	second := vmRSS(t, pid)
	t.Logf("measured: after DELETE of every session, %d sessions opened again took RSS from %d to %d KiB", len(again), full, second)
	if len(again) != len(admitted) {
		t.Fatalf("after DELETE of every session %d were admitted again, want %d", len(again), len(admitted))
	}
	if grew := second - full; grew > (full-base)*3/4 {
		t.Fatalf("the second round grew RSS by %d KiB (the first by %d): deleted sessions kept their memory", grew, full-base)
	}
}

// A session that never binds a collab session ends after
// --unbound-session-idle, which frees its place under the per-client cap;
// a bound session of the same client outlives it. Until then a further
// session of that client is answered 429 with a Retry-After no later than
// the unbound session's expiry.
func TestHTTPUnboundSessionsExpireSoonAndFreeTheirPlace(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("idle", map[string]string{"README": "x"})
	token := sb.token("idler")
	srv := sb.serveHTTP("--max-client-sessions", "2", "--unbound-session-idle", "2s")
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	bound := srv.client(ctx, token, "")
	if r, err := bound.Call(ctx, "collab_session_start", map[string]any{"root_path": repo, "actor": "keeper"}); err != nil || r.IsError {
		t.Fatalf("session_start: %v %s", err, r.Raw)
	}
	idle := srv.client(ctx, token, "")
	third := &httpmcptest.Client{URL: srv.url, Token: token}
	err := third.Initialize(ctx)
	if err := capRefusal(err, 1); err != nil {
		t.Fatalf("a third session of a client capped at two: %v", err)
	}
	var se *httpmcptest.StatusError
	errors.As(err, &se)
	if n, _ := strconv.Atoi(se.Header.Get("Retry-After")); n > 2 {
		t.Fatalf("Retry-After %d s, but the idle session expires within 2 s", n)
	}
	// The place frees once the idle session expires: ask again after
	// each Retry-After, as a client does, until admitted.
	for id := 2; ; id++ {
		retry, _ := strconv.Atoi(se.Header.Get("Retry-After"))
		select {
		case <-time.After(time.Duration(retry) * time.Second):
		case <-ctx.Done():
			t.Fatal("the unbound session never expired")
		}
		err := third.Initialize(ctx)
		if err == nil {
			break
		}
		if err := capRefusal(err, id); err != nil {
			t.Fatalf("while the idle session expires: %v", err)
		}
		errors.As(err, &se)
	}
	if _, err := idle.Call(ctx, "collab_workspace_status", map[string]any{"workspace_id": "x"}); err == nil {
		t.Fatal("the expired unbound session still answers")
	} else if !errors.As(err, &se) || se.Status != http.StatusNotFound {
		t.Fatalf("the expired unbound session answered %v, want 404", err)
	}
	if r, err := bound.Call(ctx, "collab_next", map[string]any{}); err != nil || r.RPCError != nil {
		t.Fatalf("the bound session did not outlive the unbound one: %v %s", err, r.Raw)
	}
	if !strings.Contains(srv.stderr.String(), "session expired idle") {
		t.Fatalf("no log line for the expiry:\n%s", srv.stderr.String())
	}
}
