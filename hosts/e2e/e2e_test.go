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

	"github.com/agenttool/collab/hosts/hostnames"
	"github.com/agenttool/collab/hosts/mcp"
	"github.com/agenttool/collab/hosts/plugin"
)

// world is what the host subtests share.
type world struct {
	root    string // the unpacked plugin root
	home    string // the temporary HOME of both hosts
	project string // the folder the hosts run in
	journal string // the AGENTOOL_COLLAB_DB both hosts are started with
	bin     string // folder of the claude and codex executables
}

func (w world) env(extra ...string) []string {
	env := baseEnv(w.home, w.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return append(append(env, "AGENTOOL_COLLAB_DB="+w.journal), extra...)
}

func TestHostsEndToEnd(t *testing.T) {
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
	start := time.Now()
	dir := workDir(t)
	w := world{
		home:    filepath.Join(dir, "home"),
		project: filepath.Join(dir, "project"),
		journal: filepath.Join(dir, "shared journal", "collab.sqlite"),
	}
	for _, d := range []string{w.home, w.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.bin = hostCLIs(ctx, t, os.Environ())
	w.root = packAndUnpack(ctx, t, os.Environ(), stagePackage(ctx, t, dir), dir)
	t.Logf("plugin root packed and unpacked at %s (%s so far)", w.root, time.Since(start).Round(time.Second))

	var claudeEpoch, codexEpoch string
	t.Run("claude", func(t *testing.T) { claudeEpoch = claudeFlow(ctx, t, w) })
	t.Run("claude wake", func(t *testing.T) { claudeWakeFlow(ctx, t, w) })
	t.Run("claude channel", func(t *testing.T) { claudeChannelFlow(ctx, t, w) })
	t.Run("claude zero config", func(t *testing.T) { claudeZeroConfigFlow(ctx, t, w) })
	t.Run("claude zero config channel", func(t *testing.T) { claudeZeroConfigChannelFlow(ctx, t, w) })
	t.Run("codex", func(t *testing.T) { codexEpoch = codexFlow(ctx, t, w) })
	t.Run("codex wake", func(t *testing.T) { codexWakeFlow(ctx, t, w) })
	t.Run("codex zero config", func(t *testing.T) { codexZeroConfigFlow(ctx, t, w) })
	t.Run("one journal", func(t *testing.T) { oneJournal(t, w, claudeEpoch, codexEpoch) })
	t.Run("doctor", func(t *testing.T) { doctorFlow(ctx, t, w) })
	t.Run("uninstall", func(t *testing.T) { uninstallFlow(ctx, t, w) })
	t.Logf("end-to-end run took %s", time.Since(start).Round(time.Second))
}

// workDir is a fresh temporary folder, or COLLAB_E2E_KEEP (emptied
// first and left in place) to inspect a failed run.
func workDir(t *testing.T) string {
	keep := os.Getenv("COLLAB_E2E_KEEP")
	if keep == "" {
		return t.TempDir()
	}
	if err := os.RemoveAll(keep); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(keep, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("keeping the work folder %s", keep)
	return keep
}

// expectedNames returns every tool qualified under one host's scheme.
func expectedNames(host hostnames.Host) map[string]bool {
	var scheme hostnames.Scheme
	for _, s := range hostnames.Schemes(plugin.Name, plugin.Server) {
		if s.Host == host {
			scheme = s
		}
	}
	out := map[string]bool{}
	for _, d := range mcp.Definitions() {
		out[scheme.Qualify(d.Name)] = true
	}
	return out
}

// openWorkspaceArgs is the tool call both mock models make: it writes a
// workspace into whichever journal the server opened.
func openWorkspaceArgs(w world, actor string) map[string]any {
	return map[string]any{"root_path": w.project, "actor": actor, "repository_key": "hosts-e2e"}
}

// workspaceEpoch reads the workspace's epoch id from a tool result whose
// text holds the tool's JSON payload after whatever the host put in front
// of it. Workspace ids derive from the folder, but an epoch is drawn at
// random when a database first records the workspace, so two hosts see
// the same epoch only when they opened the same file.
func workspaceEpoch(t *testing.T, result string) string {
	t.Helper()
	if strings.HasPrefix(result, "ERROR:") {
		t.Fatalf("the tool call failed: %s", result)
	}
	i := strings.Index(result, "{")
	if i < 0 {
		t.Fatalf("no JSON in the tool result: %q", result)
	}
	var payload struct {
		Workspace struct {
			EpochID string `json:"epoch_id"`
		} `json:"workspace"`
	}
	if err := json.NewDecoder(strings.NewReader(result[i:])).Decode(&payload); err != nil || payload.Workspace.EpochID == "" {
		t.Fatalf("no workspace in the tool result (%v): %q", err, result)
	}
	return payload.Workspace.EpochID
}

// checkOffered asserts that the model was offered exactly the expected
// collab tools, each within the length limit.
func checkOffered(t *testing.T, offered [][]string, want map[string]bool, keep func(string) (string, bool)) {
	t.Helper()
	best := map[string]bool{}
	for _, list := range offered {
		got := map[string]bool{}
		for _, name := range list {
			if q, ok := keep(name); ok {
				got[q] = true
			}
		}
		if len(got) > len(best) {
			best = got
		}
	}
	for name := range want {
		if !best[name] {
			t.Errorf("the model was not offered %s", name)
		}
	}
	for name := range best {
		if !want[name] {
			t.Errorf("the model was offered an unexpected tool %s", name)
		}
		if n := len(name); n > hostnames.Limit {
			t.Errorf("%s is %d characters", name, n)
		}
	}
	t.Logf("model saw %d collab tools", len(best))
}

func oneJournal(t *testing.T, w world, claudeEpoch, codexEpoch string) {
	if claudeEpoch == "" || codexEpoch == "" {
		t.Skip("a host flow failed; nothing to compare")
	}
	if claudeEpoch != codexEpoch {
		t.Errorf("Claude Code saw workspace epoch %s, Codex %s: the hosts opened different journals", claudeEpoch, codexEpoch)
	}
	if _, err := os.Stat(w.journal); err != nil {
		t.Errorf("nothing at AGENTOOL_COLLAB_DB: %v", err)
	}
	def := filepath.Join(w.home, ".local", "share", "agenttool", "collab.sqlite")
	if _, err := os.Stat(def); err == nil {
		t.Errorf("a host opened the default journal %s instead of AGENTOOL_COLLAB_DB", def)
	}
}
