package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/agenttool/collab/hosts/plugin"
)

// TestReadmeRegistersAnInstalledBinary checks the README's MCP
// registration example: the server name the docs use, and an absolute
// path to an installed binary (which works from any project folder and
// needs no compile), not `go run` with a relative package path.
func TestReadmeRegistersAnInstalledBinary(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`(\\{\"mcpServers\".*?\\}\\}\\})`").FindSubmatch(data)
	if m == nil {
		t.Fatal("README.md has no inline mcpServers example")
	}
	var doc struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(m[1], &doc); err != nil {
		t.Fatalf("the example is not JSON: %v\n%s", err, m[1])
	}
	entry, ok := doc.MCPServers[plugin.Server]
	if !ok || len(doc.MCPServers) != 1 {
		t.Fatalf("the example registers %v, want one server named %q", doc.MCPServers, plugin.Server)
	}
	if !filepath.IsAbs(entry.Command) || filepath.Base(entry.Command) != plugin.BinaryName || len(entry.Args) != 0 {
		t.Errorf("the example runs %q %v, want an absolute path to an installed %s", entry.Command, entry.Args, plugin.BinaryName)
	}
}
