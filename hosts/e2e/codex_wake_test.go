package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/plugin"
)

// codexWakeFlow installs the rendered hooks snippet as the user's
// ~/.codex/hooks.json, pointed at the packaged launcher, and runs a real
// Codex turn for bob: the UserPromptSubmit/SessionStart hook must put the
// unread notice into a request the mock model receives. Codex runs hooks
// only once trusted in its interactive review; the non-interactive run
// stands in for that with --dangerously-bypass-hook-trust.
func codexWakeFlow(ctx context.Context, t *testing.T, w world) {
	file, bobID := offerHandoff(t, w, "-codex")
	seq, version := bobCursor(t, w, bobID)
	mock := &responsesMock{Mention: wakeNotice}
	srv := mock.start(t)
	cfg := filepath.Join(w.home, ".codex", "config.toml")
	if before, err := os.ReadFile(cfg); err == nil {
		t.Cleanup(func() { os.WriteFile(cfg, before, 0o600) })
	}
	writeFile(t, cfg, "model_provider = \"e2e\"\nmodel = \"gpt-5\"\n\n"+
		"[model_providers.e2e]\nname = \"e2e mock\"\nbase_url = \""+srv.URL+"/v1\"\nwire_api = \"responses\"\n")
	hooks, err := json.Marshal(codex.WakeHooks(`"` + filepath.Join(w.root, plugin.Launcher) + `"`))
	if err != nil {
		t.Fatal(err)
	}
	hooksPath := filepath.Join(w.home, ".codex", "hooks.json")
	writeFile(t, hooksPath, string(hooks))
	t.Cleanup(func() { os.Remove(hooksPath) })
	out := run(ctx, t, cmdSpec{dir: w.project, name: filepath.Join(w.bin, "codex"),
		args: []string{"exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check", "Anything new?"},
		env:  w.env("AGENTOOL_COLLAB_SESSION_FILE=" + file), timeout: 3 * time.Minute})
	if _, _, mentioned := mock.snapshot(); !mentioned {
		t.Fatalf("no request to the model carried the notice %q; codex printed:\n%s", wakeNotice, out)
	}
	if s, v := bobCursor(t, w, bobID); s != seq || v != version {
		t.Fatalf("the hook moved bob's cursor: %d v%d -> %d v%d", seq, version, s, v)
	}
	if strings.Contains(out, file) {
		t.Fatal("codex's output names the credential file")
	}
}
