package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/hostnames"
	"github.com/agenttool/collab/hosts/plugin"
)

// codexFlow installs the plugin through Codex's marketplace commands,
// checks the resolved server entry, and has the mock model call
// collab_workspace_open. It returns the workspace epoch.
func codexFlow(ctx context.Context, t *testing.T, w world) string {
	mock := &responsesMock{Namespace: hostnames.CodexNamespace(plugin.Server), Tool: "collab_workspace_open", Arguments: openWorkspaceArgs(w, "codex-e2e"), Mention: plugin.Skill}
	srv := mock.start(t)
	cfg := filepath.Join(w.home, ".codex", "config.toml")
	writeFile(t, cfg, "model_provider = \"e2e\"\nmodel = \"gpt-5\"\n\n"+
		"[model_providers.e2e]\nname = \"e2e mock\"\nbase_url = \""+srv.URL+"/v1\"\nwire_api = \"responses\"\n")
	cli := filepath.Join(w.bin, "codex")
	codexCmd := func(args ...string) cmdSpec {
		return cmdSpec{dir: w.project, name: cli, args: args, env: w.env(), timeout: 3 * time.Minute}
	}
	t.Logf("%s", strings.TrimSpace(run(ctx, t, codexCmd("--version"))))
	for _, c := range codex.InstallCommands(w.root) {
		run(ctx, t, codexCmd(c[1:]...))
	}
	appendFile(t, cfg, "\n[plugins.\""+codex.PluginID+"\".mcp_servers."+plugin.Server+"]\ndefault_tools_approval_mode = \"approve\"\n")
	checkCodexEntry(t, run(ctx, t, codexCmd("mcp", "list", "--json")), w.home)

	out := run(ctx, t, codexCmd("exec", "--skip-git-repo-check", "Open the collab workspace for this folder."))
	offered, results, mentioned := mock.snapshot()
	if !mentioned {
		t.Errorf("no request to the model mentions the %s skill", plugin.Skill)
	}
	ns := hostnames.CodexNamespace(plugin.Server)
	checkOffered(t, offered, expectedNames(hostnames.Codex), func(name string) (string, bool) {
		tool, ok := strings.CutPrefix(name, ns+"/")
		return ns + "__" + tool, ok
	})
	if len(results) == 0 {
		t.Fatalf("no tool output reached the mock model; codex printed:\n%s", out)
	}
	return workspaceEpoch(t, results[0])
}

// checkCodexEntry asserts that Codex resolved the plugin's server with
// every server variable forwarded and its working directory in the
// installed plugin folder.
func checkCodexEntry(t *testing.T, listJSON, home string) {
	t.Helper()
	var servers []struct {
		Name      string `json:"name"`
		Transport struct {
			Command string   `json:"command"`
			EnvVars []string `json:"env_vars"`
			Cwd     string   `json:"cwd"`
		} `json:"transport"`
	}
	if err := json.Unmarshal([]byte(listJSON), &servers); err != nil {
		t.Fatalf("codex mcp list --json: %v\n%s", err, listJSON)
	}
	for _, s := range servers {
		if s.Name != plugin.Server {
			continue
		}
		for _, v := range plugin.ServerEnv() {
			if !slices.Contains(s.Transport.EnvVars, v) {
				t.Errorf("Codex does not forward %s: env_vars %v", v, s.Transport.EnvVars)
			}
		}
		if !strings.HasPrefix(s.Transport.Cwd, filepath.Join(home, ".codex", "plugins", "cache")) {
			t.Errorf("server cwd %s is not the installed plugin folder", s.Transport.Cwd)
		}
		return
	}
	t.Fatalf("codex mcp list has no server %s:\n%s", plugin.Server, listJSON)
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
