package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/plugin"
)

// doctorReport is the part of `doctor --json` the test reads.
type doctorReport struct {
	Database struct {
		Path string `json:"path"`
	} `json:"database"`
	Hosts []struct {
		Host      string   `json:"host"`
		Installed bool     `json:"installed"`
		Dropped   []string `json:"dropped"`
		Agrees    bool     `json:"agrees"`
		Database  struct {
			Path string `json:"path"`
		} `json:"database"`
	} `json:"hosts"`
	Agree      bool `json:"hosts_agree"`
	PluginRoot *struct {
		Path string `json:"path"`
		Via  string `json:"via"`
	} `json:"plugin_root"`
	Problems []string `json:"problems"`
}

// doctorFlow has the packaged binary add Hermes to a commented config and
// then run doctor against all three hosts: it must report agreement, and
// the split once the installed Codex manifest loses its env_vars.
func doctorFlow(ctx context.Context, t *testing.T, w world) {
	launcher := filepath.Join(w.root, filepath.FromSlash(plugin.Launcher))
	hermesFlow(ctx, t, w, launcher)
	doctor := func() (doctorReport, int) {
		c := cmdSpec{dir: w.project, name: launcher, args: []string{"doctor", "--json"}, env: w.env()}
		out, errOut, err := tryRun(ctx, c)
		var r doctorReport
		if jerr := json.Unmarshal([]byte(out), &r); jerr != nil {
			t.Fatalf("doctor --json (%v): %v\n%s\n%s", err, jerr, out, errOut)
		}
		code := 0
		if ee, ok := err.(interface{ ExitCode() int }); ok {
			code = ee.ExitCode()
		}
		return r, code
	}
	r, code := doctor()
	if code != 0 || !r.Agree || len(r.Problems) > 0 || r.Database.Path != w.journal {
		t.Fatalf("doctor exit %d, agree %v, database %s, problems %v", code, r.Agree, r.Database.Path, r.Problems)
	}
	if r.PluginRoot == nil || r.PluginRoot.Path != w.root {
		t.Errorf("doctor found plugin root %+v, want %s", r.PluginRoot, w.root)
	}
	installed := 0
	for _, h := range r.Hosts {
		if h.Installed {
			installed++
		}
	}
	if installed != 3 {
		t.Errorf("doctor saw %d installed hosts, want Claude Code, Codex and Hermes: %+v", installed, r.Hosts)
	}

	manifests, _ := filepath.Glob(filepath.Join(w.home, ".codex", "plugins", "cache", "*", plugin.Name, "*", filepath.FromSlash(codex.ManifestPath)))
	if len(manifests) != 1 {
		t.Fatalf("installed Codex manifests: %v", manifests)
	}
	dropEnvVars(t, manifests[0])
	r, code = doctor()
	if code != 1 || r.Agree {
		t.Fatalf("without env_vars: doctor exit %d, agree %v", code, r.Agree)
	}
	for _, h := range r.Hosts {
		if h.Host == "codex" && (h.Agrees || !slices.Contains(h.Dropped, "AGENTOOL_COLLAB_DB")) {
			t.Errorf("codex row does not report the split: %+v", h)
		}
	}
}

// hermesFlow installs the Hermes entry and skill with the packaged binary
// into a home whose config.yaml already has comments and a server.
func hermesFlow(ctx context.Context, t *testing.T, w world, launcher string) {
	cfg := filepath.Join(w.home, ".hermes", "config.yaml")
	original := "# my Hermes settings\nmodel:\n  default: some-model  # keep\n\nmcp_servers:\n  # docs server\n  docs:\n    command: docs-mcp\n"
	writeFile(t, cfg, original)
	run(ctx, t, cmdSpec{dir: w.project, name: launcher, args: []string{"host", "install", "hermes"}, env: w.env()})
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	if !strings.HasPrefix(got, original) || !strings.Contains(got, "  "+plugin.Server+":\n") ||
		!strings.Contains(got, `AGENTOOL_COLLAB_DB: "`+w.journal+`"`) {
		t.Errorf("config.yaml after host install hermes:\n%s", got)
	}
	skill := filepath.Join(w.home, ".hermes", "skills", plugin.HermesSkill, "SKILL.md")
	if _, err := os.Stat(skill); err != nil {
		t.Errorf("Hermes skill not installed: %v", err)
	}
	out := run(ctx, t, cmdSpec{dir: w.project, name: launcher, args: []string{"host", "install", "hermes"}, env: w.env()})
	if strings.Contains(out, "update") || strings.Contains(out, "create") {
		t.Errorf("a second install changed files:\n%s", out)
	}
}

// dropEnvVars removes env_vars from an installed Codex manifest.
func dropEnvVars(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, s := range m["mcpServers"].(map[string]any) {
		delete(s.(map[string]any), "env_vars")
	}
	out, _ := json.Marshal(m)
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
