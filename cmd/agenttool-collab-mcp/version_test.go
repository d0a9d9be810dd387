package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourceBuildReportsRevision builds the binary from this checkout the
// way `go build`/`go install` do by default (VCS stamping on) and checks it
// names the checked-out revision rather than 0.0.0-dev.
func TestSourceBuildReportsRevision(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: builds the binary")
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("skipping: not a git checkout (%v)", err)
	}
	top, _ := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if fi, err := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err != nil || !fi.IsDir() {
		t.Skip("skipping: a git worktree (.git is a file), which the Go toolchain does not stamp with VCS information")
	}
	bin := filepath.Join(t.TempDir(), "agenttool-collab-mcp")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	build.Env = append(os.Environ(), "GOFLAGS=-buildvcs=true")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.TrimSpace(string(out))
	if !strings.HasPrefix(got, "agenttool-collab-mcp 0.0.0-") || !strings.Contains(got, strings.TrimSpace(string(head))[:12]) {
		t.Errorf("--version = %q, want a 0.0.0-<time>-<revision> version naming %s", got, head[:12])
	}
}
