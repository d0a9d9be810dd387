package stage

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageShipsTheNpmUsersReadme checks the package's README is the one
// written for npm users (install, hosts, environment), not the
// repository's developer README.
func TestPackageShipsTheNpmUsersReadme(t *testing.T) {
	entries, err := readList(filepath.Join("..", "..", FileList))
	if err != nil {
		t.Fatal(err)
	}
	var source string
	for _, e := range entries {
		if e.path == "README.md" {
			source = e.source
		}
	}
	if source != "npm/README.md" {
		t.Fatalf("the package's README.md comes from %q, want npm/README.md", source)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", source))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"npm install -g @agenttool/collab-mcp", "## Hosts", "Claude Code", "Codex", "Hermes", "## Environment", "AGENTOOL_COLLAB_DB"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("npm/README.md lacks %q", want)
		}
	}
	for _, dev := range []string{"go test", "go run"} {
		if strings.Contains(string(data), dev) {
			t.Errorf("npm/README.md speaks to developers (%q)", dev)
		}
	}
}
