package main

import (
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store/postgres/pgtest"
)

// TestTwoServersShareOnePostgresJournal runs two real server processes on
// one PostgreSQL database named by AGENTOOL_COLLAB_DB (with a password in
// the URL): a report one appends is seen by the other's collab_next; the
// credential files land in the journal's local folder (0700, named without
// the password); verify, doctor, search and the people's status read the
// same journal; and the password appears in no result, no stderr and no
// command output.
func TestTwoServersShareOnePostgresJournal(t *testing.T) {
	const password = "pw-Zq7-never-shown"
	u, err := url.Parse(pgtest.FreshDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	// The test server trusts local connections, so the password is never
	// checked, but it travels everywhere the setting does.
	u.User = url.UserPassword(u.User.Username(), password)
	s := newSandbox(t)
	s.db = u.String()
	repo := s.repo("main", map[string]string{"a.go": "package a\n"})

	var seen []string
	a, b := s.start(), s.start()
	started := ok(t, a, "collab_session_start", map[string]any{"root_path": repo, "actor": "alice"})
	ws := str(started, "workspace.id")
	ok(t, b, "collab_session_start", map[string]any{"root_path": repo, "actor": "bob"})
	appended := call(t, a, "collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": "pg-1", "kind": "proposal",
		"body": "written by the first server"})
	if appended.IsError {
		t.Fatalf("collab_report_append: %s", appended.Raw)
	}
	next := call(t, b, "collab_next", map[string]any{"workspace_id": ws})
	if next.IsError || !strings.Contains(string(next.Raw), "written by the first server") {
		t.Fatalf("the second server's collab_next does not show the first's report: %s", next.Raw)
	}
	seen = append(seen, string(appended.Raw), string(next.Raw))

	folders, _ := filepath.Glob(filepath.Join(s.root, "xdg", "agenttool", "postgres", "*"))
	if len(folders) != 1 {
		t.Fatalf("want one local folder under XDG_DATA_HOME/agenttool/postgres, got %v", folders)
	}
	if fi, err := os.Stat(folders[0]); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("local folder %s: %v, mode %v, want 0700", folders[0], err, fi.Mode().Perm())
	}
	cred := filepath.Join(folders[0], "collab-sessions", str(started, "session_file_name"))
	if _, err := os.Stat(cred); err != nil {
		t.Fatalf("alice's credential file is not in the local folder: %v", err)
	}
	seen = append(seen, folders[0])

	verify, code := s.runCommand(t, "verify", "--json")
	if code != 0 {
		t.Fatalf("verify exit %d: %s", code, verify)
	}
	var v struct {
		Database string `json:"database"`
		AllValid bool   `json:"all_valid"`
	}
	if err := json.Unmarshal([]byte(verify), &v); err != nil || !v.AllValid || !strings.HasPrefix(v.Database, "postgres://") {
		t.Fatalf("verify --json: %v %s", err, verify)
	}
	doctor, _ := s.runCommand(t, "doctor", "--json")
	if !strings.Contains(doctor, `"postgres": true`) && !strings.Contains(doctor, `"postgres":true`) {
		t.Errorf("doctor does not report a PostgreSQL journal: %s", doctor)
	}
	search, code := s.runCommand(t, "search", "--json", "written")
	if code != 0 || !strings.Contains(search, "by the first server") {
		t.Errorf("search exit %d: %s", code, search)
	}
	status, code := s.runCommand(t, "status", "--json", "--root", repo)
	if code != 0 || !strings.Contains(status, ws) {
		t.Errorf("status exit %d: %s", code, status)
	}
	seen = append(seen, verify, doctor, search, status, a.Stderr(), b.Stderr())
	for _, out := range seen {
		if strings.Contains(out, password) {
			t.Fatalf("the password leaked into: %s", out)
		}
	}
}

// runCommand runs one subcommand of the binary with the sandbox's
// environment and returns its combined output and exit code.
func (s *sandbox) runCommand(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = s.env()
	cmd.Dir = s.root
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return string(out), 0
}
