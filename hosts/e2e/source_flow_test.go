package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/covertest"
	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/hostnames"
	"github.com/agenttool/collab/hosts/plugin"
)

// TestFromSourceEndToEnd is the install path docs/install.md gives first:
// build from the checkout, `host stage DIR`, and install DIR as a local
// marketplace in Claude Code and Codex, offline. It then rebuilds (a new
// version), stages over DIR and runs the documented refresh commands, and
// checks both hosts run the new binary.
func TestFromSourceEndToEnd(t *testing.T) {
	if os.Getenv("COLLAB_HOSTS_E2E") != "1" {
		t.Skip("skipping: set COLLAB_HOSTS_E2E=1 (or run hosts/e2e.sh) to drive Claude Code and Codex from npm against loopback mock model APIs")
	}
	if runtime.GOOS == "windows" {
		t.Skip("skipping: the end-to-end test drives the POSIX sh launcher")
	}
	for _, tool := range []string{"npm", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: %s is not installed, so the host CLIs cannot be installed", tool)
		}
	}
	ctx := context.Background()
	dir := t.TempDir()
	w := world{
		home:    filepath.Join(dir, "home"),
		project: filepath.Join(dir, "project"),
		journal: filepath.Join(dir, "journal", "collab.sqlite"),
		root:    filepath.Join(dir, "plugin"),
	}
	for _, d := range []string{w.home, w.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.bin = hostCLIs(ctx, t, os.Environ())
	claudeCmd := func(args ...string) cmdSpec {
		return cmdSpec{dir: w.project, name: filepath.Join(w.bin, "claude"), args: args, timeout: 3 * time.Minute,
			env: w.env("DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1")}
	}
	codexCmd := func(args ...string) cmdSpec {
		return cmdSpec{dir: w.project, name: filepath.Join(w.bin, "codex"), args: args, env: w.env(), timeout: 3 * time.Minute}
	}

	mock := &responsesMock{Namespace: hostnames.CodexNamespace(plugin.Server), Tool: "collab_workspace_open", Arguments: openWorkspaceArgs(w, "codex-source"), Mention: plugin.Skill}
	srv := mock.start(t)
	writeFile(t, filepath.Join(w.home, ".codex", "config.toml"), "model_provider = \"e2e\"\nmodel = \"gpt-5\"\n\n"+
		"[model_providers.e2e]\nname = \"e2e mock\"\nbase_url = \""+srv.URL+"/v1\"\nwire_api = \"responses\"\n"+
		"\n[plugins.\""+codex.PluginID+"\".mcp_servers."+plugin.Server+"]\ndefault_tools_approval_mode = \"approve\"\n")

	start := time.Now()
	stageBuild(ctx, t, dir, w.root, "0.0.0-source.1")
	t.Logf("built and staged from source in %s", time.Since(start).Round(100*time.Millisecond))
	for _, c := range claude.InstallCommands(w.root) {
		run(ctx, t, claudeCmd(c[1:]...))
	}
	for _, c := range codex.InstallCommands(w.root) {
		run(ctx, t, codexCmd(c[1:]...))
	}
	if list := run(ctx, t, claudeCmd("mcp", "list")); !connected(list, "plugin:"+plugin.Name+":"+plugin.Server) {
		t.Fatalf("claude mcp list does not report the staged server connected:\n%s", list)
	}
	checkRunning(t, "Claude Code", claudeInstallPath(t, w.home), "0.0.0-source.1")
	codexToolCall(ctx, t, mock, codexCmd)
	checkRunning(t, "Codex", codexInstallPath(t, w.home), "0.0.0-source.1")

	// A rebuild: stage over the same folder, then the refresh docs/install.md gives.
	stageBuild(ctx, t, dir, w.root, "0.0.0-source.2")
	checkRunning(t, "Claude Code before the refresh (its cached copy)", claudeInstallPath(t, w.home), "0.0.0-source.1")
	run(ctx, t, claudeCmd("plugin", "marketplace", "update", plugin.Marketplace))
	run(ctx, t, claudeCmd("plugin", "update", claude.PluginID))
	checkRunning(t, "Claude Code after the refresh", claudeInstallPath(t, w.home), "0.0.0-source.2")
	if list := run(ctx, t, claudeCmd("mcp", "list")); !connected(list, "plugin:"+plugin.Name+":"+plugin.Server) {
		t.Errorf("claude mcp list after the refresh:\n%s", list)
	}
	run(ctx, t, codexCmd("plugin", "add", codex.PluginID))
	checkRunning(t, "Codex after the refresh", codexInstallPath(t, w.home), "0.0.0-source.2")
}

// stageBuild builds the server stamped with version (standing in for a new
// commit) and runs its `host stage` from the checkout, as a user would.
func stageBuild(ctx context.Context, t *testing.T, dir, root, version string) {
	t.Helper()
	bin := filepath.Join(dir, "build", version, plugin.BinaryName)
	run(ctx, t, cmdSpec{dir: repoRoot, name: "go", args: append(append([]string{"build"}, covertest.BuildFlags()...), "-ldflags", "-X main.version="+version, "-o", bin, "./cmd/agenttool-collab-mcp"), env: os.Environ()})
	out := run(ctx, t, cmdSpec{dir: repoRoot, name: bin, args: []string{"host", "stage", root}, env: os.Environ()})
	if !strings.Contains(out, "staged agenttool-collab-mcp "+version) {
		t.Fatalf("host stage printed:\n%s", out)
	}
}

// checkRunning runs the launcher the host would start from its installed
// copy and checks the version it reports.
func checkRunning(t *testing.T, who, installPath, want string) {
	t.Helper()
	out, err := exec.Command(filepath.Join(installPath, filepath.FromSlash(plugin.Launcher)), "--version").Output()
	if got := strings.TrimSpace(string(out)); err != nil || got != "agenttool-collab-mcp "+want {
		t.Errorf("%s runs %s: %q (%v), want version %s", who, installPath, got, err, want)
	}
}

// claudeInstallPath reads where Claude Code runs the plugin from.
func claudeInstallPath(t *testing.T, home string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(home, ".claude", "plugins", "installed_plugins.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Plugins map[string][]struct {
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Plugins[claude.PluginID]) == 0 {
		t.Fatalf("installed_plugins.json (%v):\n%s", err, data)
	}
	return doc.Plugins[claude.PluginID][0].InstallPath
}

// codexInstallPath is the newest installed copy in Codex's plugin cache.
func codexInstallPath(t *testing.T, home string) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(home, ".codex", "plugins", "cache", plugin.Marketplace, plugin.Name, "*"))
	if len(matches) == 0 {
		t.Fatal("nothing in Codex's plugin cache")
	}
	newest, at := "", time.Time{}
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil && fi.ModTime().After(at) {
			newest, at = m, fi.ModTime()
		}
	}
	return newest
}

// codexToolCall has the mock model call collab_workspace_open through the
// staged plugin.
func codexToolCall(ctx context.Context, t *testing.T, mock *responsesMock, codexCmd func(...string) cmdSpec) {
	t.Helper()
	out := run(ctx, t, codexCmd("exec", "--skip-git-repo-check", "Open the collab workspace for this folder."))
	if _, results, _ := mock.snapshot(); len(results) == 0 {
		t.Fatalf("no tool output reached the mock model; codex printed:\n%s", out)
	} else {
		workspaceEpoch(t, results[0])
	}
}
