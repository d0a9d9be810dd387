package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// reportMarker is a report body the rebinding tests look for: seeing it
// means the journal was read.
const reportMarker = "rebinding-marker: the deploy key rotates on Friday"

// rebindingWorld is a journal with one workspace and one report, written
// by a real server process, and the secrets that must never leak.
type rebindingWorld struct {
	s       *sandbox
	ws      string
	secrets []string
}

func buildRebindingWorld(t *testing.T) *rebindingWorld {
	t.Helper()
	s := newSandbox(t)
	repo := s.repo("app", map[string]string{"README.md": "demo\n"})
	alice, r, file := startSession(t, s, repo, "alice")
	w := &rebindingWorld{s: s, ws: str(r, "workspace.id")}
	w.secrets = []string{readCredential(t, file)["session_token"].(string), file}
	ok(t, alice, "collab_report_append", map[string]any{"workspace_id": w.ws, "idempotency_key": "marker",
		"kind": "observation", "body": reportMarker})
	return w
}

// askWeb sends one GET to a web process with the given Host and Origin
// (as curl -H would) and returns the status and up to 64 KiB of the body;
// a live stream that was admitted is cut after its headers.
func askWeb(t *testing.T, base, path, host, origin string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s (Host %q): %v", path, host, err)
	}
	defer resp.Body.Close()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return resp.StatusCode, ""
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if err != nil {
		t.Fatalf("GET %s (Host %q): reading the body: %v", path, host, err)
	}
	return resp.StatusCode, string(body)
}

// TestWebAnswersOnlyToLoopbackNamesAndListedHosts runs real `web`
// processes on loopback and asks them as a DNS-rebinding page would: with
// a foreign Host, a foreign Origin on the live streams, or the right name
// on the wrong port. Each is refused with 403 and a short reason holding
// no journal text and no secret; the loopback names, and a name given
// with --allow-host, are served.
func TestWebAnswersOnlyToLoopbackNamesAndListedHosts(t *testing.T) {
	w := buildRebindingWorld(t)
	plain := startWeb(t, w.s, w.s.db)
	listed := startWeb(t, w.s, w.s.db, "--allow-host", "collab.example.internal")
	reports := "/w/" + w.ws + "/reports"
	cases := []struct {
		name         string
		srv          *webServer
		path         string
		host, origin string // "{port}" is the server's port
		want         int
	}{
		{"ipv4 loopback", plain, reports, "127.0.0.1:{port}", "", http.StatusOK},
		{"localhost", plain, reports, "localhost:{port}", "", http.StatusOK},
		{"localhost, uppercase, trailing dot", plain, reports, "LOCALHOST.:{port}", "", http.StatusOK},
		{"ipv6 loopback", plain, reports, "[::1]:{port}", "", http.StatusOK},
		{"rebound foreign name", plain, reports, "evil.example:{port}", "", http.StatusForbidden},
		{"foreign name without port", plain, reports, "evil.example", "", http.StatusForbidden},
		{"foreign name, trailing dot", plain, reports, "evil.example.:{port}", "", http.StatusForbidden},
		{"foreign name on the home page", plain, "/", "evil.example:{port}", "", http.StatusForbidden},
		{"foreign name on the live stream", plain, "/live", "evil.example:{port}", "", http.StatusForbidden},
		{"foreign name on an asset", plain, "/assets/app.js", "evil.example:{port}", "", http.StatusForbidden},
		{"loopback on another port", plain, reports, "127.0.0.1:{other}", "", http.StatusForbidden},
		{"loopback without port", plain, reports, "127.0.0.1", "", http.StatusForbidden},
		{"unlisted name", plain, reports, "collab.example.internal:{port}", "", http.StatusForbidden},
		{"listed name", listed, reports, "collab.example.internal:{port}", "", http.StatusOK},
		{"loopback beside a list", listed, reports, "127.0.0.1:{port}", "", http.StatusOK},
		{"foreign name beside a list", listed, reports, "evil.example:{port}", "", http.StatusForbidden},
		{"own origin on the live stream", plain, "/live", "127.0.0.1:{port}", "http://127.0.0.1:{port}", http.StatusOK},
		{"foreign origin on the live stream", plain, "/live", "127.0.0.1:{port}", "http://evil.example:{port}", http.StatusForbidden},
		{"opaque origin on the live stream", plain, "/live", "127.0.0.1:{port}", "null", http.StatusForbidden},
		{"foreign origin on the verify stream", plain, "/w/" + w.ws + "/verify/stream", "127.0.0.1:{port}", "http://evil.example", http.StatusForbidden},
		{"foreign origin on a page", plain, reports, "127.0.0.1:{port}", "http://evil.example", http.StatusForbidden},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, err := url.Parse(c.srv.url)
			if err != nil {
				t.Fatal(err)
			}
			port, _ := strconv.Atoi(u.Port())
			fill := strings.NewReplacer("{port}", u.Port(), "{other}", strconv.Itoa(otherPort(port)))
			status, body := askWeb(t, c.srv.url, c.path, fill.Replace(c.host), fill.Replace(c.origin))
			if status != c.want {
				t.Fatalf("status %d, want %d; body:\n%.300s", status, c.want, body)
			}
			if c.want == http.StatusForbidden {
				if !strings.Contains(body, "not allowed") || len(body) > 200 || strings.Contains(body, reportMarker) {
					t.Fatalf("refusal is not a short reason: %q", body)
				}
			} else if c.path == reports && !strings.Contains(body, reportMarker) {
				t.Fatalf("the admitted page does not show the report:\n%.300s", body)
			}
			for _, secret := range w.secrets {
				if strings.Contains(body, secret) {
					t.Fatal("an answer holds a token or a credential path")
				}
			}
		})
	}
}

// otherPort is a port that is not port.
func otherPort(port int) int {
	if port == 65535 {
		return port - 1
	}
	return port + 1
}

// A malformed --allow-host is refused before anything is served.
func TestWebRefusesAMalformedAllowHost(t *testing.T) {
	var out, errb strings.Builder
	code := run(context.Background(), []string{"web", "--addr", "127.0.0.1:0", "--allow-host", "http://collab.example"},
		strings.NewReader(""), &out, &errb)
	if code != 2 || !strings.Contains(errb.String(), "--allow-host") || strings.Contains(out.String(), "serving") {
		t.Fatal(fmt.Sprintf("exit %d; stdout %q; stderr %q", code, out.String(), errb.String()))
	}
}
