//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// armTraps points every way we know for a repository (and the environment a
// host passes on) to run a program at one script that appends a line to a
// marker file. It returns the marker and the extra server environment.
func armTraps(t *testing.T, s *sandbox, repo string) (marker string, env []string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "trap") // a path the shell reads literally
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	marker = filepath.Join(dir, "runs")
	trap := filepath.Join(dir, "trap.sh")
	body := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> " + shellQuote(marker) + "\n" +
		"if [ -n \"$1\" ] && [ -f \"$1\" ]; then cat \"$1\"; else cat; fi\n"
	process := filepath.Join(dir, "process.sh")
	if err := os.WriteFile(trap, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(process, []byte("#!/bin/sh\necho process >> "+shellQuote(marker)+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	hooks := filepath.Join(dir, "hooks")
	if err := os.Mkdir(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"post-index-change", "reference-transaction", "post-checkout"} {
		if err := os.WriteFile(filepath.Join(hooks, h), []byte("#!/bin/sh\nexec "+shellQuote(trap)+" hook\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitattributes", "*.txt filter=evil diff=evil\n*.bin filter=proc\n")
	write("a.txt", "one\n")
	write("b.bin", "one\n")
	s.git(repo, "add", "-A")
	s.git(repo, "commit", "-q", "-m", "attributes")
	// Git hands these to the shell: quoted, as a TMPDIR may hold spaces.
	trapCmd, processCmd := shellQuote(trap), shellQuote(process)
	for _, kv := range [][2]string{
		{"core.fsmonitor", trapCmd}, {"core.hooksPath", hooks}, {"core.pager", trapCmd}, {"pager.status", trapCmd},
		{"diff.external", trapCmd}, {"diff.evil.textconv", trapCmd}, {"diff.evil.command", trapCmd},
		{"filter.evil.clean", trapCmd}, {"filter.evil.smudge", trapCmd}, {"filter.evil.required", "true"},
		{"filter.proc.process", processCmd}, {"core.untrackedCache", "true"},
	} {
		s.git(repo, "config", kv[0], kv[1])
	}
	write("a.txt", "two\n") // same size: status must read it (through the filter) to see the change
	write("b.bin", "two\n")
	write("new.txt", "untracked\n")
	other := s.repo("elsewhere", map[string]string{"x": "x\n"})
	return marker, []string{"GIT_EXTERNAL_DIFF=" + trapCmd, "GIT_PAGER=" + trapCmd, "PAGER=" + trapCmd,
		"GIT_DIR=" + filepath.Join(other, ".git"), "GIT_WORK_TREE=" + other, "GIT_INDEX_FILE=" + filepath.Join(other, ".git", "index")}
}

func runsIn(marker string) int {
	data, _ := os.ReadFile(marker)
	_ = os.Remove(marker)
	return bytes.Count(data, []byte{'\n'})
}

// TestAHostileRepositoryRunsNoProgramThroughTheTools arms every trap at once
// in a repository and in the server's environment, proves that the plain git
// calls the reference makes run the trap, then drives real server
// processes through session_start, task_create and task_claim: the trap
// must run 0 times, and the GIT_DIR a hook could leave behind must not make
// the server observe another repository.
func TestAHostileRepositoryRunsNoProgramThroughTheTools(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("hostile", map[string]string{"README": "hi\n"})
	marker, env := armTraps(t, s, repo)
	plain := exec.Command("git", "-C", repo, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	plain.Env = s.env()
	_ = plain.Run()
	if n := runsIn(marker); n == 0 {
		t.Fatal("the traps are not armed: a plain git status ran nothing")
	}
	c := s.start(env...)
	r := ok(t, c, "collab_session_start", map[string]any{"root_path": repo, "actor": "alice"})
	ws := str(r, "workspace.id")
	if got := str(r, "worktree.root_path"); got != repo {
		t.Fatalf("the server observed %q, not the repository it was given (%s)", got, repo)
	}
	ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": "t1", "task_id": "t1",
		"title": "t", "work_mode": "coordination"})
	claim := ok(t, c, "collab_task_claim", map[string]any{"workspace_id": ws, "task_id": "t1",
		"idempotency_key": "c1", "expected_version": 1})
	if n := runsIn(marker); n != 0 {
		t.Fatalf("the tools ran the repository's program %d times", n)
	}
	if get(claim, "task.base_checkpoint.state_sha256") == nil || get(claim, "task.base_checkpoint.source") != "server_observed" {
		t.Fatalf("the base checkpoint must stay complete: %v", get(claim, "task.base_checkpoint"))
	}
}

// TestClaimsNeverTakeTheIndexLock runs a person's "git add -A" loop in a
// repository while 12 server processes claim tasks whose checkpoints
// observe that repository. Every "git add" must succeed: a checkpoint that
// took index.lock (as "git status" does to refresh the index unless optional
// locks are off) would make some of them fail.
func TestClaimsNeverTakeTheIndexLock(t *testing.T) {
	const procs = 12
	s := newSandbox(t)
	repo := s.repo("busy", map[string]string{"a.txt": "a\n", "README": "r\n"})
	clients := make([]*mcptest.Client, procs)
	var ws string
	for i := range clients {
		c, r, _ := startSession(t, s, repo, fmt.Sprintf("agent-%d", i))
		clients[i], ws = c, str(r, "workspace.id")
		id := fmt.Sprintf("task-%d", i)
		ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": id, "task_id": id,
			"title": "t", "work_mode": "coordination"})
	}
	stop := make(chan struct{})
	first := make(chan struct{})
	var adds, failures int
	var failed []string
	var loop sync.WaitGroup
	loop.Go(func() {
		for i := 0; ; i++ {
			// Change a tracked file's contents and another's time stamp, so that
			// every status of a checkpoint finds the index worth refreshing.
			_ = os.WriteFile(filepath.Join(repo, "a.txt"), fmt.Appendf(nil, "a %d\n", i), 0o644)
			_ = os.WriteFile(filepath.Join(repo, fmt.Sprintf("n%d.txt", i%5)), []byte("n\n"), 0o644)
			now := time.Now()
			_ = os.Chtimes(filepath.Join(repo, "README"), now, now)
			cmd := exec.Command("git", "-C", repo, "add", "-A")
			cmd.Env = s.env()
			out, err := cmd.CombinedOutput()
			adds++
			if err != nil {
				failures++
				failed = append(failed, strings.TrimSpace(string(out)))
			}
			if i == 0 {
				close(first)
			}
			select {
			case <-stop:
				return
			default:
			}
		}
	})
	<-first
	var claims sync.WaitGroup
	codes := make([]string, procs)
	for i, c := range clients {
		claims.Go(func() {
			id := fmt.Sprintf("task-%d", i)
			r, err := c.Call("collab_task_claim", map[string]any{"workspace_id": ws, "task_id": id,
				"idempotency_key": "claim-" + id, "expected_version": 1})
			switch {
			case err != nil:
				codes[i] = "transport: " + err.Error()
			case r.IsError:
				codes[i] = r.Code()
			default:
				codes[i] = "ok"
			}
		})
	}
	claims.Wait()
	close(stop)
	loop.Wait()
	for i, code := range codes {
		if code != "ok" {
			t.Errorf("claim %d: %s", i, code)
		}
	}
	t.Logf("%d claims, %d git add runs, %d failed", procs, adds, failures)
	if failures != 0 {
		t.Fatalf("%d of %d git add runs failed while checkpoints ran:\n%s", failures, adds, strings.Join(failed, "\n"))
	}
}

// TestCheckpointsMatchTheReferenceOnAnOrdinaryRepository runs
// session_start, task_create and task_claim on this server and on the
// reference (each with its own database) against one repository with
// committed, modified, stat-only-changed, staged, untracked and ignored
// files, and requires the same repository key, worktree id and base
// checkpoint (all but captured_at).
func TestCheckpointsMatchTheReferenceOnAnOrdinaryRepository(t *testing.T) {
	ref := os.Getenv(referenceEnv)
	if ref == "" {
		t.Skip(referenceEnv + " is not set (e.g. /work/ref/reference-mcp): no differential run")
	}
	s := newSandbox(t)
	repo := s.repo("ordinary", map[string]string{"a.txt": "a\n", "b.bin": "\x00b\x00", "src/c.go": "package c\n",
		".gitignore": "*.log\n"})
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.txt", "changed\n")
	write("staged.txt", "staged\n")
	s.git(repo, "add", "staged.txt")
	write("new.txt", "untracked\n")
	write("debug.log", "ignored\n")
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(repo, "src/c.go"), old, old); err != nil {
		t.Fatal(err)
	}
	run := func(c *mcptest.Client) map[string]any {
		r := ok(t, c, "collab_session_start", map[string]any{"root_path": repo, "actor": "alice"})
		ws := str(r, "workspace.id")
		ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": "t1", "task_id": "t1",
			"title": "t", "work_mode": "coordination"})
		claim := ok(t, c, "collab_task_claim", map[string]any{"workspace_id": ws, "task_id": "t1",
			"idempotency_key": "c1", "expected_version": 1})
		cp, _ := get(claim, "task.base_checkpoint").(map[string]any)
		delete(cp, "captured_at")
		cp["repository_key"] = get(r, "workspace.repository_key")
		return cp
	}
	ours := run(s.start())
	theirs := newSandbox(t)
	c, err := mcptest.Start(strings.Fields(ref), theirs.env())
	if err != nil {
		t.Fatalf("start the reference: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	reference := run(c)
	if ours["state_sha256"] == nil {
		t.Fatalf("our checkpoint is incomplete: %v", ours)
	}
	for k, v := range reference {
		if ours[k] != v {
			t.Errorf("%s: ours %v, reference %v", k, ours[k], v)
		}
	}
	if len(ours) != len(reference) {
		t.Errorf("keys differ: ours %v, reference %v", ours, reference)
	}
}
