package stage

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/plugin"
)

func stageFromCheckout(t *testing.T, dir string) Result {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "server")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\necho fake server\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	checkout, err := FindCheckout(".")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Stage(Options{Checkout: checkout, Dir: dir, Binary: bin, Version: "0.0.0-20261130000000-abcdefabcdef", GOOS: "linux", GOARCH: "arm64"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestStageLaysOutThePackageWithOnePlatformBinary(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plugin")
	res := stageFromCheckout(t, dir)
	for _, want := range []string{"bin/agenttool-collab-mcp", "bin/linux-arm64/agenttool-collab-mcp", ".claude-plugin/marketplace.json", ".agents/plugins/marketplace.json", "skills/" + plugin.Skill + "/SKILL.md", "package.json"} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(want))); err != nil {
			t.Errorf("%s not staged: %v", want, err)
		}
	}
	for _, f := range res.Files {
		if strings.HasPrefix(f, "bin/") && strings.Count(f, "/") == 2 && f != "bin/linux-arm64/agenttool-collab-mcp" {
			t.Errorf("staged another platform's binary %s", f)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, "bin", "linux-arm64", "agenttool-collab-mcp")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("binary mode: %v %v", fi, err)
	}
	for _, m := range []string{".claude-plugin/plugin.json", ".claude-plugin/marketplace.json", ".codex-plugin/plugin.json", "package.json"} {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(m)))
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Errorf("%s is not JSON after staging: %v", m, err)
		}
		if strings.Contains(string(data), `"`+plugin.Version+`"`) || !strings.Contains(string(data), `"0.0.0-20261130000000-abcdefabcdef"`) {
			t.Errorf("%s does not carry the binary's version:\n%s", m, data)
		}
	}
}

func TestStageReplacesAnEarlierStageButNoOtherFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plugin")
	stageFromCheckout(t, dir)
	stageFromCheckout(t, dir) // a rebuild staged over the first one
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Stage(Options{Checkout: "../..", Dir: other, Binary: "/nonexistent", Version: "1", GOOS: "linux", GOARCH: "amd64"})
	if err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Fatalf("staging into a folder of other files: err = %v, want a refusal", err)
	}
	if names, _ := os.ReadDir(other); len(names) != 1 {
		t.Errorf("the refused folder was written to: %v", names)
	}
}

func TestFindCheckoutFailsOutsideOne(t *testing.T) {
	if _, err := FindCheckout(t.TempDir()); err == nil || !strings.Contains(err.Error(), "--from") {
		t.Errorf("FindCheckout outside a checkout: err = %v, want one pointing at --from", err)
	}
}
