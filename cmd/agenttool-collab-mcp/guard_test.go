package main

import (
	"context"
	"database/sql"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// guardRepo is a repository with a linked worktree, a session in each, and
// a task claimed by the first session over src/app.
type guardRepo struct {
	s                  *sandbox
	main, linked       string
	holderCredential   string
	otherCredential    string
	launcher           string
	holderTask, taskWS string
	servers            []*mcptest.Client // the two sessions' servers
}

func newGuardRepo(t *testing.T) *guardRepo {
	t.Helper()
	s := newSandbox(t)
	g := &guardRepo{s: s}
	g.main = s.repo("guarded", map[string]string{"src/app/x.go": "package app\n", "notes.txt": "n\n", "src/application.go": "package src\n"})
	g.linked = filepath.Join(s.root, "repos", "guarded-linked")
	s.git(g.main, "worktree", "add", "-q", "-b", "other", g.linked)
	holder, r, holderFile := startSession(t, s, g.main, "alice")
	g.holderCredential, g.taskWS = holderFile, str(r, "workspace.id")
	other, _, otherFile := startSession(t, s, g.linked, "bob")
	g.otherCredential, g.servers = otherFile, []*mcptest.Client{holder, other}
	ok(t, holder, "collab_task_create", map[string]any{"workspace_id": g.taskWS, "idempotency_key": "c1", "task_id": "ui",
		"title": "Rework the app", "path_scopes": []any{"src/app"}})
	ok(t, holder, "collab_task_claim", map[string]any{"workspace_id": g.taskWS, "idempotency_key": "k1", "task_id": "ui",
		"expected_version": 1})
	// The hook runs this test binary as the command, as an installed
	// binary would run itself.
	g.launcher = filepath.Join(s.root, "collab-launcher")
	script := "#!/bin/sh\n" + serveEnv + "=1 exec " + shellQuote(os.Args[0]) + " \"$@\"\n"
	if err := os.WriteFile(g.launcher, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return g
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// collab runs a subcommand of the binary in dir.
func (g *guardRepo) collab(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(g.launcher, args...)
	cmd.Dir = dir
	cmd.Env = g.s.env()
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return string(out), code
}

// commit stages edit in dir and commits; it returns git's output and
// whether the commit was made.
func (g *guardRepo) commit(t *testing.T, dir string, env []string, stage func()) (string, bool) {
	t.Helper()
	stage()
	before := g.s.git(dir, "rev-parse", "HEAD")
	cmd := exec.Command("git", "-C", dir, "commit", "-q", "-m", "change")
	// A generous budget: these tests run beside CPU-heavy jobs, and the
	// fail-open test sets its own.
	cmd.Env = append(append(g.s.env(), "AGENTOOL_COLLAB_GUARD_TIMEOUT=60s", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com"), env...)
	out, _ := cmd.CombinedOutput()
	after := g.s.git(dir, "rev-parse", "HEAD")
	if after == before {
		g.s.git(dir, "reset", "-q", "--hard", "HEAD")
	}
	return string(out), after != before
}

func (g *guardRepo) edit(t *testing.T, dir, path, content string) func() {
	return func() {
		full := filepath.Join(dir, path)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		g.s.git(dir, "add", "-A")
	}
}

func TestGuardWarnsOrBlocksCommitsOverAnotherSessionsClaim(t *testing.T) {
	g := newGuardRepo(t)
	if out, code := g.collab(t, g.linked, "guard", "install", "--binary", g.launcher); code != 0 {
		t.Fatalf("install: %d %s", code, out)
	}
	out, made := g.commit(t, g.linked, nil, g.edit(t, g.linked, "src/app/x.go", "package app // 2\n"))
	if !made || !strings.Contains(out, "src/app/x.go is inside \"src/app\", claimed by task ui") || !strings.Contains(out, "lease until") {
		t.Fatalf("warn mode should commit and name the claim: made=%v\n%s", made, out)
	}
	out, made = g.commit(t, g.linked, nil, g.edit(t, g.linked, "src/application.go", "package src // 2\n"))
	if !made || strings.Contains(out, "collab guard") {
		t.Fatalf("a sibling path that only shares a prefix is not a conflict: made=%v\n%s", made, out)
	}

	if out, code := g.collab(t, g.linked, "guard", "install", "--mode", "block", "--binary", g.launcher); code != 0 {
		t.Fatalf("reinstall in block mode: %d %s", code, out)
	}
	if out, _ := g.collab(t, g.main, "guard", "status"); !strings.Contains(out, "pre-commit: guard installed, block mode") {
		t.Fatalf("status in the other worktree should see the shared hook: %s", out)
	}
	out, made = g.commit(t, g.linked, nil, g.edit(t, g.linked, "src/App/X.go", "package app // case\n"))
	if made || !strings.Contains(out, "refused (block mode)") {
		t.Fatalf("block mode should refuse a case-variant path in the claim: made=%v\n%s", made, out)
	}
	out, made = g.commit(t, g.linked, nil, func() { g.s.git(g.linked, "mv", "notes.txt", "src/app/notes.txt") })
	if made || !strings.Contains(out, "src/app/notes.txt is inside") {
		t.Fatalf("a rename into the claimed folder should be caught: made=%v\n%s", made, out)
	}
	out, made = g.commit(t, g.linked, []string{"AGENTOOL_COLLAB_GUARD=off"}, g.edit(t, g.linked, "src/app/y.go", "package app\n"))
	if !made || strings.Contains(out, "collab guard") {
		t.Fatalf("AGENTOOL_COLLAB_GUARD=off should bypass quietly: made=%v\n%s", made, out)
	}
	out, made = g.commit(t, g.main, []string{"AGENTOOL_COLLAB_SESSION_FILE=" + g.holderCredential},
		g.edit(t, g.main, "src/app/x.go", "package app // holder\n"))
	if !made || strings.Contains(out, "collab guard") {
		t.Fatalf("the holder's own commit should pass: made=%v\n%s", made, out)
	}
	out, made = g.commit(t, g.main, []string{"AGENTOOL_COLLAB_SESSION_FILE=" + g.otherCredential},
		g.edit(t, g.main, "src/app/x.go", "package app // not the holder\n"))
	if made {
		t.Fatalf("another session's credential must not pass as the holder:\n%s", out)
	}
}

func TestGuardFailsOpen(t *testing.T) {
	g := newGuardRepo(t)
	garbage := filepath.Join(g.s.root, "garbage.sqlite")
	os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 400)), 0o600)
	legacy := filepath.Join(g.s.root, "legacy.sqlite")
	copyFile(t, filepath.Join("..", "..", "core", "store", "testdata", "fixtures", "versions", "v0.1.0", "collab.sqlite"), legacy)
	cases := []struct {
		name, want string
		env        []string
	}{
		{"missing database", "no collab database", []string{"AGENTOOL_COLLAB_DB=" + filepath.Join(g.s.root, "absent.sqlite")}},
		{"unreadable database", "not checked", []string{"AGENTOOL_COLLAB_DB=" + garbage}},
		{"database needing migration", "not checked", []string{"AGENTOOL_COLLAB_DB=" + legacy}},
		{"timeout", "took longer than", []string{"AGENTOOL_COLLAB_GUARD_TIMEOUT=1us"}},
	}
	if out, code := g.collab(t, g.linked, "guard", "install", "--mode", "block", "--binary", g.launcher); code != 0 {
		t.Fatalf("install: %d %s", code, out)
	}
	for i, c := range cases {
		out, made := g.commit(t, g.linked, c.env, g.edit(t, g.linked, "src/app/x.go", "package app // "+c.name+"\n"))
		if !made || !strings.Contains(out, "collab guard: not checked") || !strings.Contains(out, c.want) {
			t.Errorf("%d %s: the hook should warn once and let the commit through: made=%v\n%s", i, c.name, made, out)
		}
	}
	os.Remove(g.launcher)
	out, made := g.commit(t, g.linked, nil, g.edit(t, g.linked, "src/app/x.go", "package app // no binary\n"))
	if !made || !strings.Contains(out, "collab guard: not checked:") || !strings.Contains(out, "is gone") {
		t.Errorf("a missing binary should warn and let the commit through: made=%v\n%s", made, out)
	}
}

func TestGuardKeepsAnExistingHookWorking(t *testing.T) {
	g := newGuardRepo(t)
	hooks := filepath.Join(g.s.root, "shared-hooks")
	g.s.git(g.main, "config", "core.hooksPath", hooks)
	os.MkdirAll(hooks, 0o755)
	marker := filepath.Join(g.s.root, "own-hook-ran")
	own := "#!/bin/sh\necho ran >> " + shellQuote(marker) + "\n"
	if err := os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte(own), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, code := g.collab(t, g.linked, "guard", "install", "--binary", g.launcher); code != 0 || !strings.Contains(out, "runs after the check") {
		t.Fatalf("install should chain the existing hook: %d %s", code, out)
	}
	out, made := g.commit(t, g.linked, nil, g.edit(t, g.linked, "src/app/x.go", "package app // chained\n"))
	ran, _ := os.ReadFile(marker)
	if !made || !strings.Contains(out, "claimed by task ui") || string(ran) != "ran\n" {
		t.Fatalf("both the guard and the existing hook should run: made=%v ran=%q\n%s", made, ran, out)
	}
	if out, code := g.collab(t, g.linked, "guard", "uninstall"); code != 0 || !strings.Contains(out, "your own hook is in place") {
		t.Fatalf("uninstall: %d %s", code, out)
	}
	if body, _ := os.ReadFile(filepath.Join(hooks, "pre-commit")); string(body) != own {
		t.Fatalf("uninstall should restore the earlier hook byte for byte, got %q", body)
	}
	out, made = g.commit(t, g.linked, nil, g.edit(t, g.linked, "src/app/x.go", "package app // after\n"))
	ran, _ = os.ReadFile(marker)
	if !made || strings.Contains(out, "collab guard") || string(ran) != "ran\nran\n" {
		t.Fatalf("after uninstall only the earlier hook runs: made=%v ran=%q\n%s", made, ran, out)
	}
}

// copyFile copies from to to (private, replacing what is there),
// streaming, so that a generated journal of gigabytes is never held in
// memory.
func copyFile(t testing.TB, from, to string) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestGuardChecksWhatAPushCarries(t *testing.T) {
	g := newGuardRepo(t)
	remote := filepath.Join(g.s.root, "remote.git")
	g.s.git(g.s.root, "init", "-q", "--bare", remote)
	g.s.git(g.linked, "remote", "add", "origin", remote)
	g.s.git(g.linked, "push", "-q", "origin", "other")
	g.s.git(g.linked, "mv", "notes.txt", "src/app/notes.txt")
	g.s.git(g.linked, "commit", "-q", "-m", "move notes into the claim")
	if out, code := g.collab(t, g.linked, "guard", "install", "--pre-push", "--mode", "block", "--binary", g.launcher); code != 0 {
		t.Fatalf("install: %d %s", code, out)
	}
	push := func(env ...string) (string, error) {
		cmd := exec.Command("git", "-C", g.linked, "push", "-q", "origin", "other", "other:fresh")
		cmd.Env = append(append(g.s.env(), "AGENTOOL_COLLAB_GUARD_TIMEOUT=60s"), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := push()
	if err == nil || !strings.Contains(out, "src/app/notes.txt is inside \"src/app\", claimed by task ui") {
		t.Fatalf("block mode should refuse a push carrying a rename into the claim: %v\n%s", err, out)
	}
	if out, err := push("AGENTOOL_COLLAB_GUARD=off"); err != nil || strings.Contains(out, "collab guard") {
		t.Fatalf("the bypass should let the push through quietly: %v\n%s", err, out)
	}
}

// TestGuardLetsCommitsThroughWhenItsBinaryIsBroken installs the hook, then
// breaks the program it runs in each way an installation breaks: a binary
// cut short by a failed copy, an older build that has no `guard check`
// (it prints its usage and exits 2), a launcher whose interpreter is
// missing (127), a crash (SIGSEGV). In warn and in block mode the commit
// goes through with one "not checked" line and nothing of the broken
// program's own output.
func TestGuardLetsCommitsThroughWhenItsBinaryIsBroken(t *testing.T) {
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	breakages := []struct {
		name   string
		binary []byte
	}{
		{"truncated binary", self[:64<<10]},
		{"older build without guard check", []byte("#!/bin/sh\nprintf 'unknown command \"guard\"\\nusage: a\\nusage: b\\n' >&2\nexit 2\n")},
		{"launcher that cannot start", []byte("#!/bin/sh\nexec /nonexistent/collab/node \"$@\"\n")},
		{"crash", []byte("#!/bin/sh\nkill -SEGV $$\n")},
	}
	g := newGuardRepo(t)
	working, err := os.ReadFile(g.launcher)
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"warn", "block"} {
		if err := os.WriteFile(g.launcher, working, 0o755); err != nil {
			t.Fatal(err)
		}
		if out, code := g.collab(t, g.linked, "guard", "install", "--mode", mode, "--binary", g.launcher); code != 0 {
			t.Fatalf("install: %d %s", code, out)
		}
		for _, b := range breakages {
			// A fresh file each time: the kernel refuses to overwrite a
			// binary that may still be running.
			os.Remove(g.launcher)
			if err := os.WriteFile(g.launcher, b.binary, 0o755); err != nil {
				t.Fatal(err)
			}
			out, made := g.commit(t, g.linked, nil, g.edit(t, g.linked, "src/app/x.go", "package app // "+mode+" "+b.name+"\n"))
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if !made || len(lines) != 1 || !strings.HasPrefix(lines[0], "collab guard: not checked: ") {
				t.Errorf("%s mode, %s: want the commit made with exactly one \"not checked\" line; made=%v\n%s", mode, b.name, made, out)
			}
		}
	}
}

// TestGuardAnswersALockedDatabaseWithinItsBudget holds an exclusive lock
// on the database from this process while the hook's check, another
// process, tries to read it. The check must give up within its budget
// (200 ms, the default) and let the commit through, not wait out SQLite's
// five-second lock timeout.
func TestGuardAnswersALockedDatabaseWithinItsBudget(t *testing.T) {
	g := newGuardRepo(t)
	if out, code := g.collab(t, g.linked, "guard", "install", "--mode", "block", "--binary", g.launcher); code != 0 {
		t.Fatalf("install: %d %s", code, out)
	}
	// An exclusive lock needs every other connection gone: the sessions'
	// servers end first (their claim stays in the journal).
	for _, c := range g.servers {
		c.Close()
	}
	lock, err := sql.Open("sqlite", "file:"+g.s.db+"?_pragma=busy_timeout(20000)&_pragma=locking_mode(EXCLUSIVE)")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	conn, err := lock.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK")
	g.edit(t, g.linked, "src/app/x.go", "package app // locked\n")()
	// The check itself, timed from outside: process start included.
	cmd := exec.Command(g.launcher, "guard", "check", "--hook", "pre-commit", "--mode", "block")
	cmd.Dir = g.linked
	cmd.Env = g.s.env("AGENTOOL_COLLAB_GUARD_TIMEOUT=200ms")
	began := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(began)
	t.Logf("guard check on a locked database answered in %s: %s", took, strings.TrimSpace(string(out)))
	if err != nil || !strings.Contains(string(out), "collab guard: not checked") {
		t.Fatalf("a locked database should be answered \"not checked\" with status 0: %v\n%s", err, out)
	}
	// 200 ms of budget plus the start of a large test binary on a loaded
	// machine; SQLite's own lock timeout is five seconds.
	if took > 2*time.Second {
		t.Fatalf("the check took %s; its budget is 200ms", took)
	}
	out2, made := g.commit(t, g.linked, []string{"AGENTOOL_COLLAB_GUARD_TIMEOUT=200ms"}, func() {})
	if !made || !strings.Contains(out2, "collab guard: not checked") {
		t.Fatalf("the commit should go through with a \"not checked\" line: made=%v\n%s", made, out2)
	}
}
