package setup

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/hermes"
	"github.com/agenttool/collab/hosts/plugin"
)

// fakeEnv is a process with the given variables, home, folder and binary.
func fakeEnv(vars map[string]string, home, cwd, exe string) Env {
	withHome := map[string]string{place.HomeVar(runtime.GOOS): home}
	for k, v := range vars {
		withHome[k] = v
	}
	return Env{
		Env:        place.Map(runtime.GOOS, withHome, cwd),
		Executable: func() (string, error) { return exe, nil },
	}
}

func TestDatabaseIsAbsolute(t *testing.T) {
	tests := []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{}, "/home/me/.local/share/agenttool/collab.sqlite"},
		{map[string]string{"XDG_DATA_HOME": "/xdg"}, "/xdg/agenttool/collab.sqlite"},
		{map[string]string{"AGENTOOL_COLLAB_DB": "rel/collab.sqlite"}, "/work/rel/collab.sqlite"},
		{map[string]string{"AGENTOOL_COLLAB_DB": "/abs.sqlite", "XDG_DATA_HOME": "/xdg"}, "/abs.sqlite"},
	}
	for _, tt := range tests {
		got, err := Database(fakeEnv(tt.vars, "/home/me", "/work", "/bin/x"))
		if err != nil || got != filepath.FromSlash(tt.want) {
			t.Errorf("%v: got %q, %v; want %q", tt.vars, got, err, tt.want)
		}
	}
	if _, err := Database(fakeEnv(map[string]string{"AGENTOOL_COLLAB_DB": ":memory:"}, "/h", "/w", "/x")); err == nil {
		t.Error("an in-memory database cannot be shared with a host")
	}
}

func TestHermesEntryPinsTheResolvedPaths(t *testing.T) {
	env := fakeEnv(map[string]string{"XDG_DATA_HOME": "/xdg", "AGENTOOL_COLLAB_ANCHOR_LEDGER": "/l.json"}, "/home/me", "/work", "/opt/pkg/bin/linux-x64/agenttool-collab-mcp")
	e, err := HermesEntry(env, "", "")
	if err != nil {
		t.Fatal(err)
	}
	want := []hermes.Var{{Name: "AGENTOOL_COLLAB_DB", Value: "/xdg/agenttool/collab.sqlite"}, {Name: "AGENTOOL_COLLAB_ANCHOR_LEDGER", Value: "/l.json"}, {Name: plugin.HostVariable, Value: "hermes"}}
	if e.Command != "/opt/pkg/bin/linux-x64/agenttool-collab-mcp" || len(e.Env) != len(want) {
		t.Fatalf("got %+v", e)
	}
	for i := range want {
		if e.Env[i] != want[i] {
			t.Errorf("env %d: %+v, want %+v", i, e.Env[i], want[i])
		}
	}
	for _, bad := range []struct{ db, cmd string }{{"rel.sqlite", ""}, {"/a/${HOME}/db", ""}, {"", "relative-binary"}} {
		if _, err := HermesEntry(env, bad.db, bad.cmd); err == nil {
			t.Errorf("db %q command %q: want a refusal", bad.db, bad.cmd)
		}
	}
}

func TestHermesInstallWarnsAboutTheNpxCache(t *testing.T) {
	home := t.TempDir()
	exe := filepath.Join(home, ".npm", "_npx", "abc", "node_modules", "x", "bin", "linux-x64", "agenttool-collab-mcp")
	var warn bytes.Buffer
	if _, err := HermesInstall(fakeEnv(map[string]string{}, home, home, exe), HermesOptions{}, &warn); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(warn.String(), "npx's cache") {
		t.Errorf("no warning: %q", warn.String())
	}
}

func TestHermesInstallThenUninstallOnACommentedProfile(t *testing.T) {
	home := t.TempDir()
	hermesHome := filepath.Join(home, "hh")
	original := []byte("# keep me\nmcp_servers:\n  other:\n    command: other  # theirs\n")
	profile := filepath.Join(hermesHome, "profiles", "work")
	if err := os.MkdirAll(profile, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hermes.ConfigPath(profile), original, 0o600); err != nil {
		t.Fatal(err)
	}
	env := fakeEnv(map[string]string{"HERMES_HOME": hermesHome}, home, home, "/opt/bin/agenttool-collab-mcp")
	o := HermesOptions{Profile: "work"}
	plan, err := HermesInstall(env, o, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Home != profile || !plan.Changed() {
		t.Fatalf("plan for %s changed=%v", plan.Home, plan.Changed())
	}
	var out bytes.Buffer
	Describe(&out, plan, true)
	if !strings.Contains(out.String(), "would update  "+hermes.ConfigPath(profile)) || !strings.Contains(out.String(), `+     command: "/opt/bin/agenttool-collab-mcp"`) {
		t.Errorf("dry-run description:\n%s", out.String())
	}
	if err := plan.Apply(); err != nil {
		t.Fatal(err)
	}
	skill, err := os.ReadFile(hermes.SkillPath(profile, plugin.HermesSkill))
	if err != nil || !bytes.HasPrefix(skill, []byte("---\nname: "+plugin.HermesSkill+"\n")) {
		t.Fatalf("skill not installed: %v", err)
	}
	if again, _ := HermesInstall(env, o, &bytes.Buffer{}); again.Changed() {
		t.Error("a second install would change files")
	}
	un, err := HermesUninstall(env, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := un.Apply(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(hermes.ConfigPath(profile)); !bytes.Equal(got, original) {
		t.Errorf("uninstall left:\n%s", got)
	}
}

func TestHostCommandsAndDefaultSource(t *testing.T) {
	pkg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(pkg, ".claude-plugin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkg, filepath.FromSlash(claude.MarketplacePath)), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	inPkg := fakeEnv(nil, "/h", "/w", filepath.Join(pkg, "bin", "linux-x64", "agenttool-collab-mcp"))
	if got := DefaultSource(inPkg); got != pkg {
		t.Errorf("inside a package: %q", got)
	}
	elsewhere := Env{Executable: func() (string, error) { return "", errors.New("unknown") }}
	if got := DefaultSource(elsewhere); got != RepositoryMarketplace {
		t.Errorf("outside a package: %q", got)
	}
	cmds, ok := HostCommands("codex", true, "/my pkg")
	if !ok || ShellJoin(cmds[0]) != "codex plugin marketplace add '/my pkg'" || ShellJoin(cmds[1]) != "codex plugin add collab@agenttool" {
		t.Errorf("codex install: %v", cmds)
	}
	if cmds, ok := HostCommands("claude", false, ""); !ok || ShellJoin(cmds[0]) != "claude plugin uninstall collab@agenttool" {
		t.Errorf("claude uninstall: %v", cmds)
	}
	if _, ok := HostCommands("cursor", true, ""); ok {
		t.Error("unknown hosts have no commands")
	}
}

func TestShellJoinQuotesWhatAShellWouldSplit(t *testing.T) {
	got := ShellJoin([]string{"a", "it's", "", "x;y", "/p/q-r_s.t@1:2"})
	if want := `a 'it'\''s' '' 'x;y' /p/q-r_s.t@1:2`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestHermesInstallRefusesATemporaryGoRunBuild(t *testing.T) {
	goRun := filepath.Join(os.TempDir(), "go-build1234", "b001", "exe", "agenttool-collab-mcp")
	env := fakeEnv(map[string]string{"AGENTOOL_COLLAB_DB": "/d/collab.sqlite"}, "/home/me", "/work", goRun)
	if _, err := HermesEntry(env, "", ""); err == nil || !strings.Contains(err.Error(), "install the binary first") {
		t.Errorf("HermesEntry with a go run binary: err = %v, want a refusal telling to install first", err)
	}
	if _, err := HermesEntry(env, "", "/home/me/go/bin/agenttool-collab-mcp"); err != nil {
		t.Errorf("an installed --command is accepted: %v", err)
	}
}
