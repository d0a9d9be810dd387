package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildVersionFromToolchainInformation(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	rev := "cb498b7aaccafd271549cb9967403066cf1a6431"
	cases := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "0.0.0-dev"},
		{"go install module@v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "1.2.3"},
		{"checkout stamped with a pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261129223945-cb498b7aacca+dirty"}}, "0.0.0-20261129223945-cb498b7aacca+dirty"},
		{"devel with a clean revision", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-29T22:39:45Z", "vcs.modified", "false")}, "0.0.0-20261129223945-cb498b7aacca"},
		{"devel with local changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-29T22:39:45Z", "vcs.modified", "true")}, "0.0.0-20261129223945-cb498b7aacca+dirty"},
		{"devel without a time", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev)}, "0.0.0-cb498b7aacca"},
		{"devel built with -buildvcs=false", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0.0.0-dev"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := buildVersion(c.info); got != c.want {
				t.Errorf("buildVersion = %q, want %q", got, c.want)
			}
		})
	}
}

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
