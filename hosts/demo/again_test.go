package demo

import (
	"errors"
	"testing"
)

// TestAgainNamesWhatAPersonCanTypeNext covers each way the binary can
// have been started, so the demo's closing commands work as printed.
func TestAgainNamesWhatAPersonCanTypeNext(t *testing.T) {
	onPath := func(name string) (string, error) {
		if name == "agenttool-collab-mcp" {
			return "/usr/local/bin/agenttool-collab-mcp", nil
		}
		return "", errors.New("not found")
	}
	same := func(a, b string) bool { return a == b }
	cases := []struct {
		name, argv0, exe, want string
	}{
		{"the collab command", "collab", "/home/u/go/bin/collab", "collab"},
		{"collab on Windows", `C:\bin\collab.exe`, `C:\bin\collab.exe`, "collab"},
		{"go run", "/tmp/go-build123/b001/exe/agenttool-collab-mcp", "/tmp/go-build123/b001/exe/agenttool-collab-mcp", "go run ./cmd/agenttool-collab-mcp"},
		{"on PATH", "agenttool-collab-mcp", "/usr/local/bin/agenttool-collab-mcp", "agenttool-collab-mcp"},
		{"a copy PATH does not find", "./agenttool-collab-mcp", "/work/bin/agenttool-collab-mcp", "/work/bin/agenttool-collab-mcp"},
		{"a path with spaces", "/Users/a b/agenttool-collab-mcp", "/Users/a b/agenttool-collab-mcp", "'/Users/a b/agenttool-collab-mcp'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Again(c.argv0, c.exe, onPath, same); got != c.want {
				t.Errorf("Again(%q, %q) = %q, want %q", c.argv0, c.exe, got, c.want)
			}
		})
	}
}
