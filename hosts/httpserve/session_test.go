package httpserve_test

import (
	"fmt"
	"github.com/agenttool/collab/hosts/httpserve"
	"github.com/agenttool/collab/hosts/httpserve/httpmcptest"
	"strings"
	"testing"
)

// Two MCP sessions of one client are two logical clients: each binds its
// own collab session, and a second start in one of them is refused as in
// one stdio process. The token's name is recorded as the actor's prefix.
func TestEachMCPSessionHoldsItsOwnBinding(t *testing.T) {
	r := newRig(t, nil, httpserve.Timeouts{})
	tok := r.token("alice")
	a, b := r.client(tok, ""), r.client(tok, "")
	if a.SessionID() == b.SessionID() || a.SessionID() == "" {
		t.Fatalf("MCP session ids %q and %q", a.SessionID(), b.SessionID())
	}
	sa := ok(t, a, "collab_session_start", map[string]any{"root_path": r.repo, "actor": "claude"})
	sb := ok(t, b, "collab_session_start", map[string]any{"root_path": r.repo, "actor": "alice/codex"})
	if str(sa, "session", "id") == str(sb, "session", "id") {
		t.Fatal("two MCP sessions share one collab session")
	}
	if got := str(sa, "session", "actor"); got != "alice/claude" {
		t.Fatalf("actor %q, want the principal prefix alice/claude", got)
	}
	if got := str(sb, "session", "actor"); got != "alice/codex" {
		t.Fatalf("actor %q, want an existing prefix kept once", got)
	}
	again := call(t, a, "collab_session_start", map[string]any{"root_path": r.repo, "actor": "claude"})
	if again.Code() != "session_already_bound" {
		t.Fatalf("second start in one MCP session: %s", again.Raw)
	}
	for _, res := range []map[string]any{sa, sb} {
		text := str(res, "session_file_name")
		if strings.Contains(text, "/") || strings.Contains(text, r.dir) {
			t.Fatalf("session_file_name %q shows a server path", text)
		}
	}
	if strings.Contains(string(call(t, a, "collab_next", map[string]any{"workspace_id": str(sa, "workspace", "id")}).Raw), tok) {
		t.Fatal("a result holds the bearer token")
	}
}

// A client that names its instance gets its bound session back on a new
// MCP session (a reconnect), at a new generation that fences the old MCP
// session; the credential file never leaves the server.
func TestReconnectResumesTheInstanceSessionAndFencesTheOld(t *testing.T) {
	r := newRig(t, nil, httpserve.Timeouts{})
	tok := r.token("bob")
	old := r.client(tok, "laptop-1")
	started := ok(t, old, "collab_session_start", map[string]any{"root_path": r.repo, "actor": "claude"})
	ws := str(started, "workspace", "id")
	fresh := r.client(tok, "laptop-1")
	again := call(t, fresh, "collab_session_start", map[string]any{"root_path": r.repo, "actor": "claude"})
	if again.Code() != "session_already_bound" {
		t.Fatalf("the reconnected MCP session is not bound: %s", again.Raw)
	}
	next := ok(t, fresh, "collab_next", map[string]any{"workspace_id": ws})
	if str(next, "session", "id") != str(started, "session", "id") || num(next, "session", "generation") <= num(started, "session", "generation") {
		t.Fatalf("resumed %s gen %d, started %s gen %d", str(next, "session", "id"), num(next, "session", "generation"),
			str(started, "session", "id"), num(started, "session", "generation"))
	}
	stale := call(t, old, "collab_next", map[string]any{"workspace_id": ws})
	if !stale.IsError {
		t.Fatalf("the fenced MCP session still acts: %s", stale.Raw)
	}
	// Another client's token with the same instance id gets nothing.
	other := r.client(r.token("mallory"), "laptop-1")
	if res := call(t, other, "collab_next", map[string]any{"workspace_id": ws}); res.Code() != "actor_required" {
		t.Fatalf("another client inherited the session: %s", res.Raw)
	}
	// Ending the session forgets it: the next reconnect starts unbound.
	ok(t, fresh, "collab_session_end", map[string]any{})
	later := r.client(tok, "laptop-1")
	if res := call(t, later, "collab_next", map[string]any{"workspace_id": ws}); res.Code() != "actor_required" {
		t.Fatalf("an ended session was resumed: %s", res.Raw)
	}
}

// Sessions share one search index: concurrent searches of two clients both
// answer (run with -race), and the index is released with the server.
func TestSessionsShareOneSearchIndex(t *testing.T) {
	r := newRig(t, nil, httpserve.Timeouts{})
	tok := r.token("alice")
	a, b := r.client(tok, ""), r.client(tok, "")
	ws := str(ok(t, a, "collab_workspace_open", map[string]any{"root_path": r.repo, "actor": "a"}), "workspace", "id")
	done := make(chan error, 2)
	for _, c := range []*httpmcptest.Client{a, b} {
		go func() {
			res, err := c.Call(ctxT(t), "collab_search", map[string]any{"workspace_id": ws, "query": "workspace"})
			if err == nil && res.IsError {
				err = fmt.Errorf("search refused: %s", res.Raw)
			}
			done <- err
		}()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
