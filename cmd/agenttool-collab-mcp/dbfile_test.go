package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var fixturesDir = filepath.Join("..", "..", "core", "store", "testdata", "fixtures")

// listDir names what is in dir, sorted.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// verifyJSON runs verify with args and decodes its JSON report.
func verifyJSON(t *testing.T, args ...string) (int, map[string]any, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(context.Background(), append([]string{"verify", "--json"}, args...), strings.NewReader(""), &out, &errOut)
	var report map[string]any
	if out.Len() > 0 {
		if err := json.Unmarshal(out.Bytes(), &report); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out.String())
		}
	}
	return code, report, errOut.String()
}

func TestVerifyChecksThePositionalFileNotTheDefaultDatabase(t *testing.T) {
	// The default database is sound; the named file is not.
	t.Setenv("AGENTOOL_COLLAB_DB", copyTo(t, filepath.Join(fixturesDir, "versions/v0.4.0/collab.sqlite"), t.TempDir()))
	bad := copyTo(t, filepath.Join(fixturesDir, "edge/v0.4.0-lone-surrogate-actor/collab.sqlite"), t.TempDir())
	for _, args := range [][]string{{bad}, {"--db", bad}} {
		code, report, stderr := verifyJSON(t, args...)
		if code != 1 || report["database"] != bad || report["all_valid"] != false {
			t.Fatalf("verify %v: exit %d, %v %s", args, code, report, stderr)
		}
		ws := report["workspaces"].([]any)[0]
		if num(ws, "first_bad_sequence") != 2 || !strings.Contains(str(ws, "problem"), "hash") || str(ws, "workspace_id") == "" {
			t.Fatalf("the invalid chain is not located: %v", ws)
		}
	}
	var out, errOut bytes.Buffer
	run(context.Background(), []string{"verify", bad}, nil, &out, &errOut)
	if !strings.Contains(out.String(), "first bad sequence 2: the stored hash does not match") {
		t.Fatalf("the text report does not say where the chain breaks:\n%s", out.String())
	}
	if code, _, _ := verifyJSON(t, bad, "other.sqlite"); code != 2 {
		t.Fatalf("two files should be a usage error, got exit %d", code)
	}
}

func TestVerifyLeavesNothingBesideTheFile(t *testing.T) {
	for _, fixture := range []string{"versions/v0.4.0/collab.sqlite", "versions/v0.1.0/collab.sqlite",
		"edge/v0.4.0-lone-surrogate-actor/collab.sqlite"} {
		t.Run(fixture, func(t *testing.T) {
			dir := t.TempDir()
			db := copyTo(t, filepath.Join(fixturesDir, fixture), dir)
			before := sum(t, db)
			verifyJSON(t, db)
			if got := listDir(t, dir); !slices.Equal(got, []string{"collab.sqlite"}) {
				t.Fatalf("verify left %v beside the database", got)
			}
			if sum(t, db) != before {
				t.Fatal("verify changed the file")
			}
		})
	}
}

func TestVerifyReportsADamagedPage(t *testing.T) {
	db := copyTo(t, filepath.Join(fixturesDir, "versions/v0.4.0/collab.sqlite"), t.TempDir())
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(b) - 4096; i < len(b); i++ {
		b[i] = byte(i*7 + 3)
	}
	os.WriteFile(db, b, 0o600)
	code, report, stderr := verifyJSON(t, db)
	if code != 1 || report["pages_sound"] != false || len(report["page_problems"].([]any)) == 0 {
		t.Fatalf("exit %d, %v %s", code, report, stderr)
	}
}

func TestVerifyReadsACleanlyClosedDatabaseOnReadOnlyMedia(t *testing.T) {
	dir := t.TempDir()
	db := copyTo(t, filepath.Join(fixturesDir, "versions/v0.4.0/collab.sqlite"), dir)
	var cmd *exec.Cmd
	switch {
	case os.Geteuid() != 0:
		os.Chmod(db, 0o400)
		os.Chmod(dir, 0o500)
		t.Cleanup(func() { os.Chmod(dir, 0o700) })
		cmd = exec.Command(os.Args[0], "verify", "--json", db)
	case privateMounts():
		script := `mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec "$2" verify --json "$3"`
		cmd = exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", dir, os.Args[0], db)
	default:
		t.Skip("root without private mounts: no way to make a directory read-only for one process")
	}
	cmd.Env = newSandbox(t).env()
	out, err := cmd.Output()
	var report map[string]any
	if err != nil || json.Unmarshal(out, &report) != nil || report["all_valid"] != true {
		t.Fatalf("verify on read-only media: %v\n%s", err, out)
	}
	if len(report["workspaces"].([]any)) != 2 {
		t.Fatalf("workspaces: %v", report["workspaces"])
	}
}

func TestAServerRefusesWritesOnceItsDatabaseIsDeletedOrReplaced(t *testing.T) {
	for _, how := range []string{"deleted", "replaced"} {
		t.Run(how, func(t *testing.T) {
			s := newSandbox(t)
			c := s.start()
			ok(t, c, "collab_workspace_open", map[string]any{"root_path": s.repo("one", nil), "actor": "a"})
			for _, p := range []string{s.db, s.db + "-wal", s.db + "-shm"} {
				os.Remove(p)
			}
			if how == "replaced" {
				copyTo(t, filepath.Join(fixturesDir, "versions/v0.4.0/collab.sqlite"), filepath.Dir(s.db))
			}
			refused(t, c, "collab_workspace_open", map[string]any{"root_path": s.repo("two", nil), "actor": "a"},
				"database_file_replaced")
		})
	}
}

func TestAServerWithoutASessionCreatesNoCredentialFolder(t *testing.T) {
	s := newSandbox(t)
	c := s.start()
	ok(t, c, "collab_workspace_open", map[string]any{"root_path": s.repo("one", nil), "actor": "a"})
	c.Close()
	if slices.Contains(listDir(t, filepath.Dir(s.db)), "collab-sessions") {
		t.Fatal("collab-sessions/ was created though no session was started")
	}
	c = s.start()
	ok(t, c, "collab_session_start", map[string]any{"root_path": s.repo("two", nil), "actor": "a"})
	if !slices.Contains(listDir(t, filepath.Dir(s.db)), "collab-sessions") {
		t.Fatal("a started session should keep its credential in collab-sessions/")
	}
}

func TestWorkspaceOpenAtTheFilesystemRootNeedsAName(t *testing.T) {
	s := newSandbox(t)
	c := s.start()
	refused(t, c, "collab_workspace_open", map[string]any{"root_path": "/", "actor": "a"}, "invalid_name")
	ws := ok(t, c, "collab_workspace_open", map[string]any{"root_path": "/", "actor": "a", "name": "root"})
	if str(ws, "workspace.name") != "root" || str(ws, "workspace.root_path") != "/" {
		t.Fatalf("workspace: %v", ws)
	}
}
