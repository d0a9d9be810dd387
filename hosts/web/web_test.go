package web_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/web"
)

// readOnly opens path read-only, as the web command does.
func readOnly(t testing.TB, path string) *store.Store {
	t.Helper()
	st, err := backend.Open(context.Background(), backend.Options{Path: path, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// emptyDatabase creates a current, empty collab database and returns its path.
func emptyDatabase(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "collab.sqlite")
	st, err := backend.Open(context.Background(), backend.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	return path
}

func serve(t testing.TB, opts web.Options) *httptest.Server {
	t.Helper()
	srv, err := web.New(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return ts
}

func get(t testing.TB, c *http.Client, url string, header ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestEveryResponseCarriesStrictHeaders(t *testing.T) {
	ts := serve(t, web.Options{Store: readOnly(t, emptyDatabase(t))})
	for _, path := range []string{"/", "/assets/app.js", "/assets/app.css", "/w/nope/", "/nowhere"} {
		resp, body := get(t, ts.Client(), ts.URL+path)
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") || !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s: headers %v", path, h)
		}
		for _, tag := range strings.Split(body, "<script")[1:] {
			if end := strings.Index(tag, ">"); end < 0 || !strings.Contains(tag[:end], "src=") {
				t.Errorf("%s: inline script", path)
			}
		}
	}
}

func TestUnknownWorkspaceIsNotFound(t *testing.T) {
	ts := serve(t, web.Options{Store: readOnly(t, emptyDatabase(t))})
	resp, body := get(t, ts.Client(), ts.URL+"/w/<b>x</b>/")
	if resp.StatusCode != http.StatusNotFound || strings.Contains(body, "<b>x</b>") {
		t.Fatalf("status %d; body escapes the id: %v", resp.StatusCode, !strings.Contains(body, "<b>x</b>"))
	}
}

func TestTokenIsRequiredAsBearerOrOneTimeCookie(t *testing.T) {
	const token = "s3cret-Token_value"
	ts := serve(t, web.Options{Store: readOnly(t, emptyDatabase(t)), Token: token})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if resp, body := get(t, noRedirect, ts.URL+"/"); resp.StatusCode != http.StatusUnauthorized || strings.Contains(body, token) {
		t.Fatalf("no token: %d", resp.StatusCode)
	}
	if resp, _ := get(t, noRedirect, ts.URL+"/", "Authorization", "Bearer wrong"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong bearer: %d", resp.StatusCode)
	}
	if resp, _ := get(t, noRedirect, ts.URL+"/live", "Authorization", "Bearer wrong"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("live stream without the token: %d", resp.StatusCode)
	}
	if resp, _ := get(t, noRedirect, ts.URL+"/", "Authorization", "Bearer "+token); resp.StatusCode != http.StatusOK {
		t.Fatalf("bearer: %d", resp.StatusCode)
	}
	resp, _ := get(t, noRedirect, ts.URL+"/?token="+token)
	loc := resp.Header.Get("Location")
	if resp.StatusCode != http.StatusSeeOther || strings.Contains(loc, token) || len(resp.Cookies()) != 1 || !resp.Cookies()[0].HttpOnly {
		t.Fatalf("one-time URL: %d, location %q, cookies %v", resp.StatusCode, loc, resp.Cookies())
	}
	if resp, _ := get(t, noRedirect, ts.URL+"/", "Cookie", resp.Cookies()[0].String()); resp.StatusCode != http.StatusOK {
		t.Fatalf("cookie: %d", resp.StatusCode)
	}
	if resp, _ := get(t, noRedirect, ts.URL+"/?token=wrong"); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong one-time token: %d", resp.StatusCode)
	}
}

func TestOlderDatabaseGetsAMigrationPageAndStaysUnchanged(t *testing.T) {
	src := filepath.Join("..", "..", "core", "store", "testdata", "fixtures", "legacy", "collision-v0.1.0", "collab.sqlite")
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "old.sqlite")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, web.Options{Store: readOnly(t, path)})
	for _, p := range []string{"/", "/w/anything/", "/w/anything/timeline"} {
		resp, body := get(t, ts.Client(), ts.URL+p)
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "needs migration") ||
			!strings.Contains(body, "schema version 0") {
			t.Fatalf("%s: %d\n%s", p, resp.StatusCode, body)
		}
	}
	after, err := os.ReadFile(path)
	if err != nil || string(after) != string(raw) {
		t.Fatal("the view changed the database file")
	}
}
