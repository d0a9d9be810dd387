package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agenttool/collab/hosts/profile"
)

// TestProfilingSwitchWritesCPUAndAllocationProfiles runs a real server
// process with AGENTOOL_COLLAB_PPROF set, makes a few calls, ends it the
// way hosts do (stdin closed), and reads back both profiles: each named by
// the prefix and the process id, each a gzip-compressed protocol buffer
// (what go tool pprof reads).
func TestProfilingSwitchWritesCPUAndAllocationProfiles(t *testing.T) {
	s := newSandbox(t)
	prefix := filepath.Join(s.root, "prof", "collab")
	if err := os.MkdirAll(filepath.Dir(prefix), 0o755); err != nil {
		t.Fatal(err)
	}
	c := s.start(profile.Env + "=" + prefix)
	pid := c.Pid()
	if _, err := c.ListTools(); err != nil {
		t.Fatal(err)
	}
	if code := c.Close(); code != 0 {
		t.Fatalf("server exited %d: %s", code, c.Stderr())
	}
	for _, kind := range []string{"cpu", "alloc"} {
		path := prefix + "." + strconv.Itoa(pid) + "." + kind + ".pprof"
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s profile: %v", kind, err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s profile is not gzip: %v", kind, err)
		}
		body, err := io.ReadAll(zr)
		if err != nil || len(body) == 0 {
			t.Fatalf("%s profile body: %d bytes, %v", kind, len(body), err)
		}
	}
}

// TestProfilingSwitchOffByDefault shows that an unset or empty variable
// starts nothing, and that a prefix in a missing directory is refused
// before any work is done.
func TestProfilingSwitchOffByDefault(t *testing.T) {
	ran := false
	if code := profile.Run(func(string) string { return "" }, io.Discard, func() int { ran = true; return 7 }); code != 7 || !ran {
		t.Fatalf("profiling off: code %d, ran %v", code, ran)
	}
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "p")
	var stderr bytes.Buffer
	ran = false
	code := profile.Run(func(string) string { return missing }, &stderr, func() int { ran = true; return 0 })
	if code != 1 || ran || !bytes.Contains(stderr.Bytes(), []byte(profile.Env)) {
		t.Fatalf("unwritable prefix: code %d, ran %v, stderr %q", code, ran, stderr.String())
	}
}
