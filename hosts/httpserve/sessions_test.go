package httpserve_test

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/httpserve"
	"github.com/agenttool/collab/hosts/httpserve/httpmcptest"
)

// Each session cap admits exactly its number of live sessions and answers
// the next initialize 429 with Retry-After and a JSON-RPC error; ending a
// session (DELETE) gives its place back at once.
func TestSessionCapsAdmitTheirNumberAndDeleteFreesAPlace(t *testing.T) {
	cases := []struct {
		name             string
		perClient, total int
		tokens           int
		admitted         int
		reasonInRefusal  string
	}{
		{"per client", 3, 100, 1, 3, "this client"},
		{"in total", 100, 4, 3, 4, "the server"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, func(c *httpserve.Config) { c.MaxClientSessions, c.MaxSessions = tc.perClient, tc.total }, httpserve.Timeouts{})
			var toks []string
			for i := range tc.tokens {
				toks = append(toks, r.token("c"+strconv.Itoa(i)))
			}
			var open []*httpmcptest.Client
			var refusal *httpmcptest.StatusError
			for i := 0; i < 10 && refusal == nil; i++ {
				c := &httpmcptest.Client{URL: r.url, Token: toks[i%len(toks)]}
				if err := c.Initialize(ctxT(t)); err != nil {
					if !errors.As(err, &refusal) {
						t.Fatal(err)
					}
					continue
				}
				open = append(open, c)
			}
			if len(open) != tc.admitted || refusal == nil {
				t.Fatalf("%d sessions admitted before a refusal, want %d", len(open), tc.admitted)
			}
			if refusal.Status != http.StatusTooManyRequests || refusal.Header.Get("Retry-After") == "" ||
				!strings.Contains(refusal.Body, `"code":-32005`) || !strings.Contains(refusal.Body, tc.reasonInRefusal) ||
				!strings.Contains(refusal.Body, `"id":1`) {
				t.Fatalf("refusal %d Retry-After %q: %s", refusal.Status, refusal.Header.Get("Retry-After"), refusal.Body)
			}
			last := open[len(open)-1]
			if status, err := last.Delete(ctxT(t)); err != nil || status != http.StatusNoContent {
				t.Fatalf("DELETE: %d %v", status, err)
			}
			again := &httpmcptest.Client{URL: r.url, Token: last.Token}
			if err := again.Initialize(ctxT(t)); err != nil {
				t.Fatalf("a place freed by DELETE was not given back: %v", err)
			}
			for _, c := range open[:len(open)-1] {
				if _, err := c.Call(ctxT(t), "collab_session_list", map[string]any{"workspace_id": "x"}); err != nil {
					t.Fatalf("an admitted session stopped answering: %v", err)
				}
			}
		})
	}
}

// An unbound session expires after UnboundIdle; a bound one does not.
func TestUnboundSessionExpiresAndBoundOneStays(t *testing.T) {
	r := newRig(t, func(c *httpserve.Config) { c.UnboundIdle = 300 * time.Millisecond }, httpserve.Timeouts{})
	tok := r.token("alice")
	bound := r.client(tok, "")
	ok(t, bound, "collab_session_start", map[string]any{"root_path": r.repo, "actor": "claude"})
	idle := r.client(tok, "")
	deadline := time.Now().Add(deadline)
	for {
		_, err := idle.Call(ctxT(t), "collab_session_list", map[string]any{"workspace_id": "x"})
		var se *httpmcptest.StatusError
		if errors.As(err, &se) && se.Status == http.StatusNotFound {
			break
		}
		if err != nil || time.Now().After(deadline) {
			t.Fatalf("the unbound session did not expire: %v", err)
		}
		// Each call restarts the idle clock: let it run out.
		time.Sleep(600 * time.Millisecond)
	}
	if _, err := bound.Call(ctxT(t), "collab_next", map[string]any{}); err != nil {
		t.Fatalf("the bound session expired too: %v", err)
	}
}
