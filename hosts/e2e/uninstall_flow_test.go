package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/plugin"
)

// uninstallFlow removes the plugin with each host's own commands and the
// Hermes entry with the binary, and checks nothing of it is left.
func uninstallFlow(ctx context.Context, t *testing.T, w world) {
	for _, c := range append(claude.UninstallCommands(), codex.UninstallCommands()...) {
		run(ctx, t, cmdSpec{dir: w.project, name: filepath.Join(w.bin, c[0]), args: c[1:], env: w.env()})
	}
	list := run(ctx, t, cmdSpec{dir: w.project, name: filepath.Join(w.bin, "claude"), args: []string{"mcp", "list"}, env: w.env()})
	if strings.Contains(list, "plugin:"+plugin.Name+":") {
		t.Errorf("claude mcp list still shows the plugin:\n%s", list)
	}
	launcher := filepath.Join(w.root, filepath.FromSlash(plugin.Launcher))
	run(ctx, t, cmdSpec{dir: w.project, name: launcher, args: []string{"host", "uninstall", "hermes"}, env: w.env()})
	data, err := os.ReadFile(filepath.Join(w.home, ".hermes", "config.yaml"))
	if err != nil || strings.Contains(string(data), plugin.Server+":") || !strings.Contains(string(data), "# docs server\n  docs:\n") {
		t.Errorf("config.yaml after host uninstall hermes (%v):\n%s", err, data)
	}
}
