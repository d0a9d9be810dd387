//go:build unix

package gitstate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
)

// countGit puts a logging wrapper in front of git on PATH and returns a
// function reporting the git invocations made since the last report.
func countGit(t *testing.T) func() []string {
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := tempDir(t)
	log := filepath.Join(dir, "calls.log")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() []string {
		data, _ := os.ReadFile(log)
		_ = os.Remove(log)
		if len(data) == 0 {
			return nil
		}
		return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
}

// TestGitProcessesPerOperation pins how many git processes each operation
// starts; the contract's sequence uses 3 for identity and 7 for a checkpoint.
// Inspecting a subdirectory repeats the directory queries from the top level.
func TestGitProcessesPerOperation(t *testing.T) {
	committed := smallRepo(t)
	unborn := newRepo(t)
	plain := outsideWorktree(t)
	filtered := smallRepo(t)
	filtered.git("config", "filter.tidy.clean", "cat")
	var observer Observer
	calls := countGit(t)
	ctx := context.Background()
	cases := []struct {
		name string
		run  func()
		want int
	}{
		{"inspect a top level", func() { _, _ = Inspect(ctx, committed.dir, "") }, 1},
		{"inspect a subdirectory", func() { _, _ = Inspect(ctx, committed.path("src"), "") }, 2},
		{"inspect a non-Git directory", func() { _, _ = Inspect(ctx, plain, "") }, 1},
		{"inspect and capture a committed repository", func() { _, _, _ = InspectAndCapture(ctx, committed.dir, "") }, 6},
		{"inspect and capture a subdirectory", func() { _, _, _ = InspectAndCapture(ctx, committed.path("src"), "") }, 7},
		{"inspect and capture a repository without commits", func() { _, _, _ = InspectAndCapture(ctx, unborn.dir, "") }, 1},
		{"inspect and capture a non-Git directory", func() { _, _, _ = InspectAndCapture(ctx, plain, "") }, 1},
		{"capture a known identity", func() { _ = Capture(ctx, mustInspect(t, committed.dir)) }, 1 + 6},
		{"capture a non-Git identity", func() { _ = Capture(ctx, mustInspect(t, plain)) }, 1},
		// An Observer learns Git's system file once, then skips the filter
		// listing while no configuration file can define a driver.
		{"observer: first capture", func() { _, _, _ = observer.InspectAndCapture(ctx, committed.dir, "") }, 1 + 1 + 4},
		{"observer: later captures", func() { _, _, _ = observer.InspectAndCapture(ctx, committed.dir, "") }, 5},
		{"observer: a repository configuring a filter", func() { _, _, _ = observer.InspectAndCapture(ctx, filtered.dir, "") }, 6},
	}
	calls()
	for _, c := range cases {
		c.run()
		if got := calls(); len(got) != c.want {
			t.Errorf("%s: %d git processes, want %d:\n%s", c.name, len(got), c.want, strings.Join(got, "\n"))
		}
	}
}

// TestInspectRefusesWorktreesWithoutDirectories uses a git that knows the top
// level of a worktree but cannot name its directories.
func TestInspectRefusesWorktreesWithoutDirectories(t *testing.T) {
	root := tempDir(t)
	bin := tempDir(t)
	script := "#!/bin/sh\nfor a; do case $a in --show-toplevel) echo '" + root + "';; --git-*) exit 128;; esac; done\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	_, err := Inspect(context.Background(), root, "")
	ce, ok := collaberr.As(err)
	if !ok || ce.Code != "git_identity_unavailable" {
		t.Fatalf("got %v, want git_identity_unavailable", err)
	}
	if p, _ := ce.Detail("root_path"); p != root {
		t.Fatalf("root_path %v, want %s", p, root)
	}
}
