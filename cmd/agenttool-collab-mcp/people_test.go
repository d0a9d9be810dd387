package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// keptDemo writes a journal with real server processes (the demo) and
// returns its database path and a state directory for people's sessions.
func keptDemo(t *testing.T) (db, state string) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "demo", "--keep", filepath.Join(dir, "kept"))
	cmd.Env = inherited(serveEnv + "=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("demo: %v\n%s", err, out)
	}
	return filepath.Join(dir, "kept", "state", "collab.sqlite"), filepath.Join(dir, "state")
}

// runCLI runs one people's command as its own process and returns stdout,
// stderr and the exit code.
func runCLI(t *testing.T, state string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = inherited(serveEnv+"=1", "XDG_STATE_HOME="+state, "NO_COLOR=")
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// TestReadCommandsOverARealJournal runs every read command, text and
// --json, over a journal the demo's server processes wrote, and checks
// each shows what the script did.
func TestReadCommandsOverARealJournal(t *testing.T) {
	db, state := keptDemo(t)
	cases := []struct {
		args []string
		text []string
		json string
	}{
		{[]string{"status"}, []string{"chain valid", "Bound sessions", "Presence", "document-limits", "held by cy"}, "bound_sessions"},
		{[]string{"tail", "--kind", "task", "--actor", "cy"}, []string{"task.changes_requested", "task.accepted", "task.claimed"}, ""},
		{[]string{"tasks", "--status", "claimed"}, []string{"refactor-handlers", "document-limits"}, "tasks"},
		{[]string{"show", "rate-limiter"}, []string{"accepted", "Burst case covered.", "src/api"}, "task"},
		{[]string{"reports", "--kind", "proposal"}, []string{"Handlers should read the limit from config"}, "reports"},
		{[]string{"decisions"}, []string{"100 requests per minute"}, "decision_reports"},
		{[]string{"sessions"}, []string{"ada", "ben", "cy"}, "bound_sessions"},
		{[]string{"handoffs", "--all"}, []string{"accepted", "rate-limiter: ada → ben"}, "handoffs"},
	}
	for _, tc := range cases {
		t.Run(tc.args[0], func(t *testing.T) {
			out, errs, code := runCLI(t, state, append(tc.args, "--db", db)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			for _, want := range tc.text {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "\x1b[") {
				t.Errorf("colour off a terminal")
			}
			out, errs, code = runCLI(t, state, append(tc.args, "--db", db, "--json")...)
			if code != 0 {
				t.Fatalf("--json exit %d: %s", code, errs)
			}
			if tc.json == "" { // tail --json prints one event object per line
				for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
					var e map[string]any
					if err := json.Unmarshal([]byte(line), &e); err != nil || e["actor"] != "cy" {
						t.Errorf("tail --json line %q: %v", line, err)
					}
				}
				return
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(out), &m); err != nil {
				t.Fatalf("--json output: %v\n%s", err, out)
			}
			if _, ok := m[tc.json]; !ok {
				t.Errorf("--json lacks %q: %s", tc.json, out)
			}
		})
	}
}

// TestReadCommandsRefuseClearly: usage errors exit 2 with usage, -h exits
// 0, and a missing database names the problem and the fix without
// creating the file.
func TestReadCommandsRefuseClearly(t *testing.T) {
	state := t.TempDir()
	missing := filepath.Join(t.TempDir(), "none.sqlite")
	for _, name := range []string{"status", "tail", "tasks", "show", "reports", "decisions", "sessions", "handoffs", "post", "decide", "review", "task", "handoff", "whoami", "logout"} {
		if _, errs, code := runCLI(t, state, name, "--bogus"); code != 2 || !strings.Contains(errs, "usage: agenttool-collab-mcp "+name) {
			t.Errorf("%s --bogus: exit %d, stderr %q", name, code, errs)
		}
		if _, _, code := runCLI(t, state, name, "-h"); code != 0 {
			t.Errorf("%s -h: exit %d", name, code)
		}
	}
	_, errs, code := runCLI(t, state, "status", "--db", missing)
	if code != 2 || !strings.Contains(errs, "no database at") || !strings.Contains(errs, "fix:") {
		t.Errorf("missing db: exit %d, %q", code, errs)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("a read command created the database")
	}
	old, err := os.ReadFile(filepath.Join("..", "..", "core", "store", "testdata", "fixtures", "versions", "v0.1.0", "collab.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	legacy := filepath.Join(t.TempDir(), "old.sqlite")
	os.WriteFile(legacy, old, 0o600)
	_, errs, code = runCLI(t, state, "tasks", "--db", legacy)
	if code != 2 || !strings.Contains(errs, "older schema") || !strings.Contains(errs, "to migrate it") {
		t.Errorf("database needing migration: exit %d, %q", code, errs)
	}
	if after, _ := os.ReadFile(legacy); string(after) != string(old) {
		t.Errorf("a read command changed a database that needs migration")
	}
}

// TestTailFollowSeesAnotherProcessWithinASecond starts `tail -f` and has
// a separate server process append an event; the line must arrive within
// one second of the write being acknowledged.
func TestTailFollowSeesAnotherProcessWithinASecond(t *testing.T) {
	db, state := keptDemo(t)
	out, _, _ := runCLI(t, state, "status", "--db", db, "--json")
	var st struct {
		Workspace struct {
			Head     int64  `json:"event_head_sequence"`
			RootPath string `json:"root_path"`
		} `json:"workspace"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	tail := exec.Command(os.Args[0], "tail", "-f", "--json", "--db", db, "--since", strconv.FormatInt(st.Workspace.Head, 10))
	tail.Env = inherited(serveEnv + "=1")
	pipe, err := tail.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := tail.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { tail.Process.Kill(); tail.Wait() }()
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	server, err := mcptest.Start([]string{os.Args[0]}, inherited(serveEnv+"=1", "AGENTOOL_COLLAB_DB="+db))
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	ok(t, server, "collab_session_start", map[string]any{"root_path": st.Workspace.RootPath, "actor": "dora"})
	written := time.Now()
	select {
	case line := <-lines:
		if !strings.Contains(line, `"actor":"dora"`) || !strings.Contains(line, "session.joined") {
			t.Fatalf("tail -f printed %q, want dora's session.joined", line)
		}
		if d := time.Since(written); d > time.Second {
			t.Fatalf("tail -f took %v to show another process's write", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("tail -f never showed another process's write")
	}
}

// TestPersonActsUnderTheSameRules: a person's first action starts a
// session whose credential is 0600 in the state directory; an agent
// process resuming that very session reports a task complete; the
// person's review --accept is then refused as self-review, while another
// person accepts it. Logout ends the session and removes the credential.
func TestPersonActsUnderTheSameRules(t *testing.T) {
	db, pat := keptDemo(t)
	if _, errs, code := runCLI(t, pat, "post", "I will take the changelog", "--as", "pat", "--db", db); code != 0 {
		t.Fatalf("post: exit %d: %s", code, errs)
	}
	creds, _ := filepath.Glob(filepath.Join(pat, "agenttool", "collab-person", "*.json"))
	if len(creds) != 1 {
		t.Fatalf("want one credential in the state directory, got %v", creds)
	}
	if fi, err := os.Stat(creds[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credential mode: %v %v", fi.Mode(), err)
	}
	out, _, code := runCLI(t, pat, "whoami", "--db", db, "--json")
	if code != 0 || !strings.Contains(out, `"actor": "pat"`) || strings.Contains(out, "token") {
		t.Fatalf("whoami: exit %d %s", code, out)
	}

	agent, err := mcptest.Start([]string{os.Args[0]}, inherited(serveEnv+"=1", "AGENTOOL_COLLAB_DB="+db,
		"AGENTOOL_COLLAB_SESSION_FILE="+creds[0]))
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	ws := str(ok(t, agent, "collab_workspace_status", map[string]any{"workspace_id": workspaceOf(t, pat, db)}), "workspace.id")
	task := ok(t, agent, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": "p1", "task_id": "changelog",
		"title": "Write the changelog", "path_scopes": []any{"CHANGELOG.md"}})
	claimed := ok(t, agent, "collab_task_claim", map[string]any{"workspace_id": ws, "idempotency_key": "p2", "task_id": "changelog",
		"expected_version": num(task, "task.version")})
	ok(t, agent, "collab_task_complete", map[string]any{"workspace_id": ws, "idempotency_key": "p3", "task_id": "changelog",
		"lease_id": str(claimed, "task.lease_id"), "expected_version": num(claimed, "task.version"), "summary": "Changelog written."})
	agent.Close()

	_, errs, code := runCLI(t, pat, "review", "changelog", "--accept", "--db", db)
	if code != 1 || !strings.Contains(errs, "self_review_forbidden") || !strings.Contains(errs, "fix:") {
		t.Fatalf("pat reviewing pat's own completion: exit %d, %q", code, errs)
	}
	other := t.TempDir()
	if _, errs, code := runCLI(t, other, "review", "changelog", "--accept", "--as", "quinn", "--db", db); code != 0 {
		t.Fatalf("another person's accept: exit %d: %s", code, errs)
	}
	out, _, _ = runCLI(t, pat, "show", "changelog", "--db", db)
	if !strings.Contains(out, "accepted quinn") {
		t.Errorf("show after accept:\n%s", out)
	}
	if _, errs, code := runCLI(t, pat, "logout", "--db", db); code != 0 {
		t.Fatalf("logout: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(creds[0]); !os.IsNotExist(err) {
		t.Errorf("logout left the credential file: %v", err)
	}
	if _, _, code := runCLI(t, pat, "whoami", "--db", db); code != 1 {
		t.Errorf("whoami after logout: exit %d, want 1", code)
	}
}

// workspaceOf reads the demo workspace's id with `status --json`.
func workspaceOf(t *testing.T, state, db string) string {
	t.Helper()
	out, errs, code := runCLI(t, state, "status", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("status: %s", errs)
	}
	var st struct {
		Workspace struct {
			ID string `json:"id"`
		} `json:"workspace"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	return st.Workspace.ID
}

// TestUsageNamesTheCommandAsTyped: run under its short name, a command's
// usage says "collab", not the server's long name.
func TestUsageNamesTheCommandAsTyped(t *testing.T) {
	short := filepath.Join(t.TempDir(), "collab")
	if err := os.Symlink(os.Args[0], short); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(short, "status", "--bogus")
	cmd.Env = inherited(serveEnv+"=1", "XDG_STATE_HOME="+t.TempDir())
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "usage: collab status") {
		t.Fatalf("collab status --bogus should print collab's usage:\n%s", out)
	}
	cmd = exec.Command(short, "--version")
	cmd.Env = inherited(serveEnv+"=1", "XDG_STATE_HOME="+t.TempDir())
	if out, err := cmd.Output(); err != nil || !strings.HasPrefix(string(out), "collab ") {
		t.Fatalf("collab --version: %v, printed %q; want it to name collab", err, out)
	}
}
