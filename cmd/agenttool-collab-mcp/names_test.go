package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// nameAgent is one agent: its server process and its session.
type nameAgent struct {
	c       *mcptest.Client
	session string
	ws      string
}

func startNamed(t *testing.T, s *sandbox, repo, actor string) nameAgent {
	t.Helper()
	c := s.start()
	started := ok(t, c, "collab_session_start", map[string]any{"root_path": repo, "actor": actor})
	return nameAgent{c: c, session: str(started, "session.id"), ws: str(started, "workspace.id")}
}

// sees reports whether the agent's collab_next lists a report with body
// addressed to its session.
func (a nameAgent) sees(t *testing.T, body string) bool {
	t.Helper()
	next := ok(t, a.c, "collab_next", map[string]any{"workspace_id": a.ws})
	reports, _ := next["reports"].([]any)
	for _, r := range reports {
		if str(r, "body") == body && str(r, "to_session_id") == a.session {
			return true
		}
	}
	return false
}

// head is the workspace's journal head, read with `status --json`.
func head(t *testing.T, state, db, root string) int64 {
	t.Helper()
	out, errs, code := runCLI(t, state, "status", "--db", db, "--root", root, "--json")
	if code != 0 {
		t.Fatalf("status: exit %d: %s", code, errs)
	}
	var st struct {
		Workspace struct {
			Head int64 `json:"event_head_sequence"`
		} `json:"workspace"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	return st.Workspace.Head
}

// TestPersonAddressesAnAgentByName: with agents ben and two cys running
// as real server processes, a person posts to ben by name and ben's agent
// sees it through collab_next; a short id picks one cy; the ambiguous cy
// and an unknown name are refused with the candidates and write nothing;
// the listings read pat → ben and --json keeps ids and labels both.
func TestPersonAddressesAnAgentByName(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("proj", map[string]string{"README.md": "proj\n", "src/api/limit.go": "package api\n"})
	ben, cy1, cy2 := startNamed(t, s, repo, "ben"), startNamed(t, s, repo, "cy"), startNamed(t, s, repo, "cy")
	pat := t.TempDir()

	out, errs, code := runCLI(t, pat, "post", "ping ben", "--to", "ben", "--as", "pat", "--db", s.db, "--root", repo)
	if code != 0 || !strings.Contains(out, "to ben (session_") {
		t.Fatalf("post --to ben: exit %d\n%s%s", code, out, errs)
	}
	if !ben.sees(t, "ping ben") {
		t.Fatal("ben's collab_next does not show the report posted to ben by name")
	}
	short := cy1.session[:len("session_")+8]
	if _, errs, code := runCLI(t, pat, "post", "ping first cy", "--to", short, "--db", s.db, "--workspace", "proj"); code != 0 {
		t.Fatalf("post --to %s: exit %d: %s", short, code, errs)
	}
	if !cy1.sees(t, "ping first cy") || cy2.sees(t, "ping first cy") {
		t.Fatal("a short id did not address exactly the session it names")
	}

	before := head(t, pat, s.db, repo)
	refusals := []struct {
		to   string
		want []string
	}{
		{"cy", []string{`"cy" names 2 sessions`, cy1.session[:16], cy2.session[:16]}},
		{"dora", []string{`"dora" names no live session`, "ben (", "cy (", "pat (", ben.session[:16]}},
	}
	newcomer := t.TempDir() // whose first action this would be: no session may start
	for _, r := range refusals {
		for _, state := range []string{pat, newcomer} {
			_, errs, code := runCLI(t, state, "post", "hello", "--to", r.to, "--as", "quinn", "--db", s.db, "--root", repo)
			if code != 1 || !strings.Contains(errs, "session_not_found") || !strings.Contains(errs, "fix: give --to a short id") {
				t.Errorf("post --to %s: exit %d, want 1 with a fix:\n%s", r.to, code, errs)
			}
			for _, w := range r.want {
				if !strings.Contains(errs, w) {
					t.Errorf("post --to %s: refusal lacks %q:\n%s", r.to, w, errs)
				}
			}
		}
	}
	if after := head(t, pat, s.db, repo); after != before {
		t.Errorf("four refused names wrote %d events", after-before)
	}
	if creds, _ := filepath.Glob(filepath.Join(newcomer, "agenttool", "collab-person", "*")); len(creds) != 0 {
		t.Errorf("a refused first action left a session credential: %v", creds)
	}

	out, errs, code = runCLI(t, pat, "reports", "--to", "ben", "--db", s.db, "--workspace", filepath.Join(repo, "src", "api"))
	if code != 0 || !strings.Contains(out, "pat observation/informs → ben: ping ben") || strings.Contains(out, "first cy") {
		t.Errorf("reports --to ben: exit %d\n%s%s", code, out, errs)
	}
	out, _, _ = runCLI(t, pat, "reports", "--db", s.db, "--root", repo)
	if !strings.Contains(out, "→ cy ("+short+"): ping first cy") {
		t.Errorf("a label two sessions bear should carry its short id:\n%s", out)
	}
	out, _, _ = runCLI(t, pat, "reports", "--to", "ben", "--ids", "--db", s.db, "--root", repo)
	if !strings.Contains(out, "→ ben ("+ben.session+")") {
		t.Errorf("reports --ids should show the full id:\n%s", out)
	}
	out, _, _ = runCLI(t, pat, "reports", "--to", "ben", "--json", "--db", s.db, "--root", repo)
	var listed struct {
		Reports []struct {
			ToSessionID string `json:"to_session_id"`
			ToActor     string `json:"to_actor"`
			FromActor   string `json:"from_actor"`
		} `json:"reports"`
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil || len(listed.Reports) != 1 {
		t.Fatalf("reports --json: %v\n%s", err, out)
	}
	if r := listed.Reports[0]; r.ToSessionID != ben.session || r.ToActor != "ben" || r.FromActor != "pat" {
		t.Errorf("reports --json should keep the id and the label: %+v", r)
	}

	// The web view's filter takes a name too and labels the addressee.
	srv := startWeb(t, s, s.db)
	status, page := askWeb(t, srv.url, "/w/"+ben.ws+"/reports?to=ben", "", "")
	if status != 200 || !strings.Contains(page, "ping ben") || strings.Contains(page, "first cy") ||
		!strings.Contains(page, `→ <strong title="`+ben.session+`">ben</strong>`) {
		t.Errorf("the reports page filtered to=ben: status %d\n%s", status, page)
	}
	status, page = askWeb(t, srv.url, "/w/"+ben.ws+"/reports?to=cy", "", "")
	if status != 200 || !strings.Contains(page, "names 2 sessions") || strings.Contains(page, "ping") {
		t.Errorf("the reports page filtered to an ambiguous name: status %d\n%s", status, page)
	}
}
