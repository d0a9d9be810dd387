package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/hostnames"
	"github.com/agenttool/collab/hosts/plugin"
)

// claudeFlow validates the manifests, installs the plugin through Claude
// Code's marketplace commands, checks the server connects, and has the
// mock model call collab_workspace_open. It returns the workspace epoch.
func claudeFlow(ctx context.Context, t *testing.T, w world) string {
	cli := filepath.Join(w.bin, "claude")
	env := w.env("DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1")
	claudeCmd := func(args ...string) cmdSpec {
		return cmdSpec{dir: w.project, name: cli, args: args, env: env, timeout: 3 * time.Minute}
	}
	t.Logf("%s", strings.TrimSpace(run(ctx, t, claudeCmd("--version"))))
	for _, m := range []string{
		filepath.Join(w.root, claude.ManifestPath),
		filepath.Join(w.root, claude.MarketplacePath),
		filepath.Join(absRepoRoot(t), claude.MarketplacePath),
	} {
		out := run(ctx, t, claudeCmd("plugin", "validate", "--strict", m))
		if !strings.Contains(out, "Validation passed") {
			t.Errorf("claude plugin validate %s:\n%s", m, out)
		}
	}
	for _, c := range claude.InstallCommands(w.root) {
		run(ctx, t, claudeCmd(c[1:]...))
	}
	list := run(ctx, t, claudeCmd("mcp", "list"))
	if !connected(list, "plugin:"+plugin.Name+":"+plugin.Server) {
		t.Fatalf("claude mcp list does not report the server connected:\n%s", list)
	}

	tool := expectedTool(hostnames.Claude, "collab_workspace_open")
	mock := &anthropicMock{Tool: tool, Input: openWorkspaceArgs(w, "claude-e2e"), Mention: plugin.Skill}
	srv := mock.start(t)
	prompt := claudeCmd("-p", "Open the collab workspace for this folder.", "--allowedTools", tool)
	prompt.env = append(prompt.env, "ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=sk-ant-e2e-dummy")
	out := run(ctx, t, prompt)
	offered, results, mentioned := mock.snapshot()
	if !mentioned {
		t.Errorf("no request to the model mentions the %s skill", plugin.Skill)
	}
	checkOffered(t, offered, expectedNames(hostnames.Claude), func(name string) (string, bool) {
		return name, strings.HasPrefix(name, "mcp__plugin_"+plugin.Name+"_")
	})
	if len(results) == 0 {
		t.Fatalf("no tool result reached the mock model; claude printed:\n%s", out)
	}
	return workspaceEpoch(t, results[0])
}

// connected reports whether `claude mcp list` marks the named server as
// connected (it exits 0 either way).
func connected(list, server string) bool {
	for _, line := range strings.Split(list, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), server+":") {
			return strings.Contains(line, "Connected") && !strings.Contains(line, "Failed")
		}
	}
	return false
}

// expectedTool qualifies one bare tool name under host's scheme.
func expectedTool(host hostnames.Host, tool string) string {
	for _, s := range hostnames.Schemes(plugin.Name, plugin.Server) {
		if s.Host == host {
			return s.Qualify(tool)
		}
	}
	panic("unknown host " + string(host))
}
