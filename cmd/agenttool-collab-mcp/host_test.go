package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/buildinfo"
	"github.com/agenttool/collab/hosts/setup"
)

// hostCommand runs `host ARGS...` for env as the binary does.
func hostCommand(env setup.Env, args []string, stdout, stderr io.Writer) int {
	return setup.Command(env, buildinfo.Version(version), args, stdout, stderr)
}

func testHostEnv(vars map[string]string, home string) setup.Env {
	withHome := map[string]string{place.HomeVar(runtime.GOOS): home}
	for k, v := range vars {
		withHome[k] = v
	}
	return setup.Env{
		Env:        place.Map(runtime.GOOS, withHome, home),
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
		{[]string{"install", "codex"}, "codex plugin marketplace add agenttool/collab\ncodex plugin add collab@agenttool\n# this marketplace installs the published npm package; until a release exists, stage a local\n# plugin root from a checkout instead: agenttool-collab-mcp host stage DIR (see docs/install.md)\n"},
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
	for _, args := range [][]string{{}, {"install"}, {"add", "hermes"}, {"install", "cursor"}, {"install", "hermes", "stray"}, {"stage"}, {"stage", "a", "b"}, {"stage", "--bogus", "x"}} {
		if code := hostCommand(testHostEnv(nil, t.TempDir()), args, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestHostStageWritesAPluginRootAndPrintsBothHostsCommands(t *testing.T) {
	env := testHostEnv(nil, t.TempDir())
	exe := filepath.Join(t.TempDir(), "agenttool-collab-mcp")
	if err := os.WriteFile(exe, []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	env.Executable = func() (string, error) { return exe, nil }
	env.Cwd = os.Getwd // inside the checkout
	dir := filepath.Join(t.TempDir(), "plugin")
	var out, errOut bytes.Buffer
	if code := hostCommand(env, []string{"stage", dir}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	// The folder is printed as a shell reads it back (quoted when TMPDIR holds spaces).
	shown := setup.ShellJoin([]string{dir})
	for _, want := range []string{"claude plugin marketplace add " + shown, "claude plugin install collab@agenttool", "codex plugin marketplace add " + shown, "codex plugin add collab@agenttool"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	bin := filepath.Join(dir, "bin", npmPlatform(), "agenttool-collab-mcp")
	if data, err := os.ReadFile(bin); err != nil || string(data) != "binary" {
		t.Errorf("the staged binary is not this one: %q %v", data, err)
	}
	env.Cwd = func() (string, error) { return t.TempDir(), nil }
	out.Reset()
	if code := hostCommand(env, []string{"stage", t.TempDir(), "--json"}, &out, &errOut); code != 1 || !strings.Contains(out.String(), `"error": "no checkout`) {
		t.Errorf("outside a checkout with --json: exit %d, stdout %s", code, out.String())
	}
}

// npmPlatform names this machine the way the package's bin/ folders do.
func npmPlatform() string {
	goos, arch := runtime.GOOS, runtime.GOARCH
	if goos == "windows" {
		goos = "win32"
	}
	if arch == "amd64" {
		arch = "x64"
	}
	return goos + "-" + arch
}

// TestCommandsRefuseToWriteATemporaryBuildIntoAConfig runs this binary
// from where Go keeps `go run` builds (its work folder and, since Go 1.24,
// its build cache, here under a GOCACHE of another name) and asks each
// command that writes the binary's path into another program's
// configuration to do so. Each refuses, naming the path, and writes
// nothing.
func TestCommandsRefuseToWriteATemporaryBuildIntoAConfig(t *testing.T) {
	self, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	s := newSandbox(t)
	repo := s.repo("hooked", map[string]string{"a.txt": "a\n"})
	const hash = "0674706e3656ce11c46f2c2fc72bcc573ea128966fc6e6539e155d6e500faa1a"
	places := []string{
		filepath.Join(s.root, "tmp", "go-build2190528646", "b001", "exe", "agenttool-collab-mcp"),
		filepath.Join(s.root, "gocache", "06", hash+"-d", "agenttool-collab-mcp"),
	}
	hermesHome := filepath.Join(s.root, "hermes")
	if err := os.MkdirAll(hermesHome, 0o700); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(hermesHome, "config.yaml")
	if err := os.WriteFile(config, []byte("model: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(repo, ".git", "hooks", "pre-commit")
	for _, exe := range places {
		if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(exe, self, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"host", "install", "hermes", "--hermes-home", hermesHome}, {"guard", "install"}} {
			cmd := exec.Command(exe, args...)
			cmd.Dir, cmd.Env = repo, s.env()
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), exe) || !strings.Contains(string(out), "go install") {
				t.Errorf("%s from %s: want a refusal naming the path and the fix, got %v\n%s", strings.Join(args[:2], " "), exe, err, out)
			}
		}
		if got, _ := os.ReadFile(config); string(got) != "model: x\n" {
			t.Errorf("config.yaml was written from %s:\n%s", exe, got)
		}
		if _, err := os.Stat(hook); err == nil {
			t.Errorf("a hook naming %s was written", exe)
			os.Remove(hook)
		}
	}
}
