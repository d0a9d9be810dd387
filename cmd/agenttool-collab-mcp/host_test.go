package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/setup"
)

func testHostEnv(vars map[string]string, home string) setup.Env {
	return setup.Env{
		Getenv:     func(k string) string { return vars[k] },
		LookupEnv:  func(k string) (string, bool) { v, ok := vars[k]; return v, ok },
		UserHome:   func() (string, error) { return home, nil },
		Cwd:        func() (string, error) { return home, nil },
		Executable: func() (string, error) { return "/opt/collab/bin/linux-x64/agenttool-collab-mcp", nil },
	}
}

func TestHostInstallHermesDryRunWritesNothing(t *testing.T) {
	home := t.TempDir()
	cfg := filepath.Join(home, ".hermes", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	original := []byte("# mine\nmodel: x\n")
	if err := os.WriteFile(cfg, original, 0o600); err != nil {
		t.Fatal(err)
	}
	env := testHostEnv(map[string]string{"AGENTOOL_COLLAB_DB": "/data/collab.sqlite"}, home)
	var out bytes.Buffer
	if code := hostCommand(env, []string{"install", "hermes", "--dry-run"}, &out, &bytes.Buffer{}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if got, _ := os.ReadFile(cfg); !bytes.Equal(got, original) {
		t.Error("--dry-run changed config.yaml")
	}
	if !strings.Contains(out.String(), `AGENTOOL_COLLAB_DB: "/data/collab.sqlite"`) {
		t.Errorf("the dry run does not show the entry:\n%s", out.String())
	}

	out.Reset()
	if code := hostCommand(env, []string{"install", "hermes"}, &out, &bytes.Buffer{}); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	got, _ := os.ReadFile(cfg)
	if !bytes.HasPrefix(got, original) || !strings.Contains(string(got), "command: \"/opt/collab/bin/linux-x64/agenttool-collab-mcp\"") {
		t.Errorf("config.yaml after install:\n%s", got)
	}
	out.Reset()
	if code := hostCommand(env, []string{"uninstall", "hermes"}, &out, &bytes.Buffer{}); code != 0 {
		t.Fatalf("uninstall exit %d", code)
	}
	if got, _ := os.ReadFile(cfg); !strings.Contains(string(got), "# mine\nmodel: x\n") || strings.Contains(string(got), "agenttool:") {
		t.Errorf("config.yaml after uninstall:\n%s", got)
	}
}

func TestHostInstallHermesRefusesAMissingProfile(t *testing.T) {
	var errOut bytes.Buffer
	code := hostCommand(testHostEnv(nil, t.TempDir()), []string{"install", "hermes", "--profile", "nope"}, &bytes.Buffer{}, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "hermes_profile_not_found") {
		t.Errorf("exit %d: %s", code, errOut.String())
	}
}

func TestHostInstallClaudeAndCodexPrintTheirCommands(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"install", "claude", "--source", "/pkg"}, "claude plugin marketplace add /pkg\nclaude plugin install collab@agenttool\n"},
		{[]string{"install", "codex"}, "codex plugin marketplace add agenttool/collab\ncodex plugin add collab@agenttool\n"},
		{[]string{"uninstall", "codex"}, "codex plugin remove collab@agenttool\ncodex plugin marketplace remove agenttool\n"},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		if code := hostCommand(testHostEnv(nil, t.TempDir()), tt.args, &out, &bytes.Buffer{}); code != 0 || !strings.HasSuffix(out.String(), tt.want) {
			t.Errorf("%v: exit %d\n%s", tt.args, code, out.String())
		}
	}
}

func TestHostRejectsMalformedCommands(t *testing.T) {
	for _, args := range [][]string{{}, {"install"}, {"add", "hermes"}, {"install", "cursor"}, {"install", "hermes", "stray"}} {
		if code := hostCommand(testHostEnv(nil, t.TempDir()), args, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
