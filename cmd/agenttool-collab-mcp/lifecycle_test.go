package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// sessionState is one row of `sessions --json`'s session_states.
type sessionState struct {
	SessionID string `json:"session_id"`
	State     string `json:"state"`
	Reason    string `json:"reason"`
	Process   string `json:"process"`
	Host      string `json:"host"`
}

// statesOf runs a read command with --json and returns its session
// states by session id.
func statesOf(t *testing.T, state, db, command string) map[string]sessionState {
	t.Helper()
	out, errs, code := runCLI(t, state, command, "--db", db, "--json")
	if code != 0 && command != "status" {
		t.Fatalf("%s --json: exit %d: %s", command, code, errs)
	}
	var v struct {
		States []sessionState `json:"session_states"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%s --json: %v\n%s", command, err, out)
	}
	m := map[string]sessionState{}
	for _, s := range v.States {
		m[s.SessionID] = s
	}
	return m
}

// expireLeases moves every lease of the workspace into the past, as the
// clock would: the rows' times only (the journal is not touched), inside
// the write guard the schema's triggers ask of session-plane writes.
func expireLeases(t *testing.T, db string) {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	tx, err := conn.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"INSERT INTO v2_write_guard (nonce, enabled) VALUES ('test-clock', 1)",
		"UPDATE tasks SET lease_expires_at = '2000-01-01T00:00:00.000Z' WHERE lease_expires_at IS NOT NULL",
		"DELETE FROM v2_write_guard WHERE nonce = 'test-clock'",
	} {
		if _, err := tx.Exec(q); err != nil {
			tx.Rollback()
			t.Fatalf("%s: %v", q, err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestKilledServersSessionsGoStaleThenEndedAndTheReferenceAnswersAsBefore
// starts two agents' server processes, kills both, and follows their sessions in `sessions` and
// `status`: while a server runs its session is active and names its host
// (the client's initialize name and version, MCP stdio, the pid); once
// killed, the one holding nothing is ended at once, the one holding a
// lease stays active until the lease time passes, then is stale while
// its expired lease waits for recovery, and ended once it is recovered.
// The reference's tools answer as before: collab_workspace_status still
// lists both sessions as active, since only collab_session_end ends one.
func TestKilledServersSessionsGoStaleThenEndedAndTheReferenceAnswersAsBefore(t *testing.T) {
	s := newSandbox(t)
	root := s.repo("life", map[string]string{"a.go": "package a\n"})
	state := t.TempDir()
	ada, ben := s.start(), s.start()
	adaID := str(ok(t, ada, "collab_session_start", map[string]any{"root_path": root, "actor": "ada"}), "session.id")
	started := ok(t, ben, "collab_session_start", map[string]any{"root_path": root, "actor": "ben"})
	benID, ws := str(started, "session.id"), str(started, "workspace.id")
	task := ok(t, ada, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": "c1", "task_id": "lim",
		"title": "Add a limiter", "path_scopes": []any{"a.go"}})
	ok(t, ada, "collab_task_claim", map[string]any{"workspace_id": ws, "idempotency_key": "c2", "task_id": "lim",
		"expected_version": num(task, "task.version"), "ttl_seconds": 300})

	expect := func(phase, id string, want, reason string) {
		t.Helper()
		for _, command := range []string{"sessions", "status"} {
			got := statesOf(t, state, s.db, command)[id]
			if got.State != want || !strings.Contains(got.Reason, reason) {
				t.Errorf("%s, %s: session %s is %s (%s), want %s (…%s…)", phase, command, id, got.State, got.Reason, want, reason)
			}
		}
	}
	expect("both running", adaID, "active", "host process running")
	expect("both running", benID, "active", "host process running")
	host := statesOf(t, state, s.db, "sessions")[adaID].Host
	if want := fmt.Sprintf("mcptest 1 (MCP stdio, pid %d)", ada.Pid()); host != want {
		t.Errorf("ada's host is %q, want %q", host, want)
	}
	out, _, _ := runCLI(t, state, "sessions", "--db", s.db)
	if !strings.Contains(out, fmt.Sprintf("mcptest 1 (MCP stdio, pid %d)", ben.Pid())) {
		t.Errorf("sessions does not name ben's host:\n%s", out)
	}

	ada.Kill()
	ben.Kill()
	expect("killed", benID, "ended", "host process exited")
	expect("killed", adaID, "active", "host process exited; its lease runs until")
	expireLeases(t, s.db)
	expect("lease time passed", adaID, "stale", "1 expired lease(s) wait for collab_task_recover")
	out, _, _ = runCLI(t, state, "status", "--db", s.db)
	if !strings.Contains(out, "stale") || !strings.Contains(out, "ended") {
		t.Errorf("status does not show the stale and the ended session:\n%s", out)
	}

	web := startWeb(t, s, s.db)
	resp, err := http.Get(web.url + "/w/" + ws + "/sessions")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`<span class="pill p-stale">stale</span>`, `<span class="pill p-ended">ended</span>`,
		fmt.Sprintf("mcptest 1 (MCP stdio, pid %d)", ada.Pid())} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the web view's sessions page lacks %q", want)
		}
	}

	answers := func(c *mcptest.Client) []any {
		st := ok(t, c, "collab_workspace_status", map[string]any{"workspace_id": ws})
		list, _ := st["active_sessions"].([]any)
		return list
	}
	cy := s.start()
	if list := answers(cy); len(list) != 2 {
		t.Errorf("collab_workspace_status lists %d active sessions, want both killed ones: %v", len(list), list)
	}
	if ref := os.Getenv("COLLAB_REFERENCE_CMD"); ref != "" {
		r, err := mcptest.Start([]string{ref}, s.env())
		if err != nil {
			t.Fatalf("start the reference: %v", err)
		}
		defer r.Close()
		if mine, theirs := answers(cy), answers(r); !sameJSON(mine, theirs) {
			t.Errorf("active sessions differ from the reference's on a file with host records:\n ours %v\n ref  %v", mine, theirs)
		}
		if v := ok(t, r, "collab_journal_verify", map[string]any{"workspace_id": ws}); v["chain_valid"] != true {
			t.Fatalf("the reference cannot verify a file with host records: %v", v)
		}
		ok(t, r, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "ref", "idempotency_key": "r1", "title": "after host records"})
		r.Close()
	}
	ok(t, cy, "collab_session_start", map[string]any{"root_path": root, "actor": "cy"})
	lim := ok(t, cy, "collab_task_get", map[string]any{"workspace_id": ws, "task_id": "lim"})
	ok(t, cy, "collab_task_recover", map[string]any{"workspace_id": ws, "idempotency_key": "c3", "task_id": "lim",
		"expected_version": num(lim, "task.version"), "action": "release", "recovery_note": "ada's server is gone"})
	expect("its lease recovered", adaID, "ended", "host process exited")
}

// TestEverySessionNamesItsHost: a person's first command records "a
// person at the terminal", and an HTTP client of `serve` is named by its
// initialize clientInfo and its token, judged by last-seen time alone
// (no process of its own is watched).
func TestEverySessionNamesItsHost(t *testing.T) {
	s := newSandbox(t)
	root := s.repo("hosts", map[string]string{"a.go": "package a\n"})
	state := t.TempDir()
	token := s.token("alice-laptop")
	srv := s.serveHTTP()
	ctx := context.Background()
	c := srv.client(ctx, token, "")
	res, err := c.Call(ctx, "collab_session_start", map[string]any{"root_path": root, "actor": "alice"})
	if err != nil || res.IsError {
		t.Fatalf("HTTP session start: %v %v", res, err)
	}
	httpID := str(res.Structured, "session.id")
	if _, errs, code := runCLI(t, state, "post", "hello from the terminal", "--as", "pat", "--db", s.db); code != 0 {
		t.Fatalf("post: %s", errs)
	}
	states := statesOf(t, state, s.db, "sessions")
	if got := states[httpID]; got.Host != "httpmcptest 1 (MCP over HTTP, token alice-laptop)" || got.State != "active" ||
		got.Process != "unknown" || !strings.HasPrefix(got.Reason, "seen ") {
		t.Errorf("the HTTP client's session: %+v", got)
	}
	var person sessionState
	for id, st := range states {
		if id != httpID {
			person = st
		}
	}
	if person.Host != "collab (a person at the terminal)" || person.State != "active" {
		t.Errorf("the person's session: %+v", person)
	}
}
