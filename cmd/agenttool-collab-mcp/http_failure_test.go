package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// burst has writers append reports until stop closes; it records which
// reports were acknowledged. It returns once every writer has stopped.
type burst struct {
	mu    sync.Mutex
	acked map[string]bool
	count atomic.Int64
	// enough is closed once `want` reports were acknowledged.
	enough chan struct{}
	once   sync.Once
	// refused receives the answer of a write that was refused (a bug).
	refused chan string
}

func runBurst(ctx context.Context, t *testing.T, srv *httpServer, token, repo, ws string, writers int, want int64) (*burst, *sync.WaitGroup) {
	t.Helper()
	b := &burst{acked: map[string]bool{}, enough: make(chan struct{}), refused: make(chan string, writers)}
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		c := srv.client(ctx, token, "")
		if r, err := c.Call(ctx, "collab_session_start", map[string]any{"root_path": repo, "actor": fmt.Sprintf("w%d", w)}); err != nil || r.IsError {
			t.Fatalf("session_start: %v %s", err, r.Raw)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				r, err := c.Call(ctx, "collab_report_append", map[string]any{"workspace_id": ws,
					"idempotency_key": fmt.Sprintf("w%d-%d", w, i), "kind": "observation", "body": "burst"})
				if err != nil {
					return // the server went away: this call's outcome is unknown
				}
				if r.IsError || r.RPCError != nil {
					b.refused <- string(r.Raw)
					return
				}
				b.mu.Lock()
				b.acked[str(r.Structured, "report.id")] = true
				b.mu.Unlock()
				if b.count.Add(1) >= want {
					b.once.Do(func() { close(b.enough) })
				}
			}
		}()
	}
	return b, &wg
}

func openWorkspace(t *testing.T, ctx context.Context, srv *httpServer, token, repo string) string {
	t.Helper()
	r, err := srv.client(ctx, token, "").Call(ctx, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "setup"})
	if err != nil || r.IsError {
		t.Fatalf("workspace_open: %v %s", err, r.Raw)
	}
	return str(r.Structured, "workspace.id")
}

// A server killed with SIGKILL in the middle of a burst keeps every write
// it acknowledged; the chain verifies and a new server serves the file.
func TestHTTPServerKilledMidBurstKeepsAcknowledgedWrites(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("kill", map[string]string{"README": "x"})
	token := sb.token("writer")
	srv := sb.serveHTTP()
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	ws := openWorkspace(t, ctx, srv, token, repo)
	b, wg := runBurst(ctx, t, srv, token, repo, ws, 8, 40)
	select {
	case <-b.enough:
	case raw := <-b.refused:
		t.Fatalf("a burst write was refused: %s", raw)
	case <-ctx.Done():
		t.Fatalf("the burst never reached 40 acknowledged writes:\n%s", srv.stderr.String())
	}
	srv.kill()
	wg.Wait()
	f := readJournal(t, sb.db, ws)
	for id := range b.acked {
		if f.byType["report.posted"][id] != 1 {
			t.Fatalf("acknowledged report %s: %d in the journal after the kill", id, f.byType["report.posted"][id])
		}
	}
	if !f.contiguous {
		t.Fatal("the journal has a gap after the kill")
	}
	verifyChain(t, sb.db)
	again := sb.serveHTTP()
	if _, err := again.client(ctx, token, "").Call(ctx, "collab_report_list", map[string]any{"workspace_id": ws}); err != nil {
		t.Fatalf("a new server cannot serve the file: %v", err)
	}
	t.Logf("%d acknowledged writes survived SIGKILL", len(b.acked))
}

// SIGTERM drains: the server stops accepting, answers what it is running,
// exits 0, and every acknowledged write is in the journal.
func TestHTTPSigtermDrainsAndKeepsEveryAnsweredWrite(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("drain", map[string]string{"README": "x"})
	token := sb.token("writer")
	srv := sb.serveHTTP()
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	ws := openWorkspace(t, ctx, srv, token, repo)
	b, wg := runBurst(ctx, t, srv, token, repo, ws, 8, 20)
	select {
	case <-b.enough:
	case raw := <-b.refused:
		t.Fatalf("a burst write was refused: %s", raw)
	case <-ctx.Done():
		t.Fatal("the burst never reached 20 acknowledged writes")
	}
	if code := srv.terminate(); code != 0 {
		t.Fatalf("serve exited %d after SIGTERM:\n%s", code, srv.stderr.String())
	}
	wg.Wait()
	if !strings.Contains(srv.stderr.String(), "stopped") {
		t.Fatalf("no stop line:\n%s", srv.stderr.String())
	}
	f := readJournal(t, sb.db, ws)
	for id := range b.acked {
		if f.byType["report.posted"][id] != 1 {
			t.Fatalf("acknowledged report %s missing after a drain", id)
		}
	}
	verifyChain(t, sb.db)
}

// A client that goes away in the middle of a call does not hurt the
// server: the write either happened or not, never half; retrying with the
// same idempotency key yields exactly one report.
func TestHTTPClientDisconnectMidCall(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("drop", map[string]string{"README": "x"})
	token := sb.token("flaky")
	srv := sb.serveHTTP()
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	ws := openWorkspace(t, ctx, srv, token, repo)
	c := srv.client(ctx, token, "flaky-1")
	if r, err := c.Call(ctx, "collab_session_start", map[string]any{"root_path": repo, "actor": "flaky"}); err != nil || r.IsError {
		t.Fatalf("session_start: %v %s", err, r.Raw)
	}
	args := map[string]any{"workspace_id": ws, "idempotency_key": "once", "kind": "observation", "body": "dropped"}
	for i := 0; i < 5; i++ {
		// The body reader cancels the request as soon as the server has
		// read the whole body: the server is then running (or about to
		// run) the call when the client disappears.
		callCtx, drop := context.WithCancel(ctx)
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"collab_report_append","arguments":{"workspace_id":%q,"idempotency_key":"once","kind":"observation","body":"dropped"}}}`, 100+i, ws)
		status, _, err := c.Post(callCtx, &cancelAtEOF{r: strings.NewReader(body), cancel: drop}, int64(len(body)))
		drop()
		if err == nil && status != http.StatusOK {
			t.Fatalf("dropped call answered %d", status)
		}
	}
	// The same client instance reconnects, gets its session back, and
	// retries: the receipt answers if the dropped call was committed.
	fresh := srv.client(ctx, token, "flaky-1")
	r, err := fresh.Call(ctx, "collab_report_append", args)
	if err != nil || r.IsError {
		t.Fatalf("retry after disconnects: %v %s", err, r.Raw)
	}
	select {
	case <-srv.exited:
		t.Fatal("the server died when clients went away")
	default:
	}
	f := readJournal(t, sb.db, ws)
	if n := len(f.byType["report.posted"]); n != 1 {
		t.Fatalf("%d reports for one idempotency key", n)
	}
	verifyChain(t, sb.db)
}

// cancelAtEOF calls cancel when the server has read the last byte.
type cancelAtEOF struct {
	r      io.Reader
	cancel context.CancelFunc
}

func (c *cancelAtEOF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err == io.EOF {
		c.cancel()
	}
	return n, err
}
