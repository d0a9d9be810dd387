package doctor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/hermes"
	"github.com/agenttool/collab/hosts/plugin"
)

// machine is a temporary user home with hosts installed in it.
type machine struct {
	t    *testing.T
	home string
	env  map[string]string
}

func newMachine(t *testing.T) *machine {
	home := t.TempDir()
	return &machine{t: t, home: home, env: map[string]string{"HOME": home, "PATH": "/usr/bin"}}
}

func (m *machine) writeJSON(path string, v any) {
	m.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		m.t.Fatal(err)
	}
	m.write(path, data)
}

func (m *machine) write(path string, data []byte) {
	m.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		m.t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		m.t.Fatal(err)
	}
}

// installed copies a manifest into the host's plugin cache the way the
// host's own install does.
func (m *machine) installed(dot, manifestPath string, v any) {
	m.writeJSON(filepath.Join(m.home, dot, "plugins", "cache", plugin.Marketplace, plugin.Name, plugin.Version, filepath.FromSlash(manifestPath)), v)
}

func (m *machine) installBoth(cm claude.Manifest, xm codex.Manifest) {
	m.installed(".claude", claude.ManifestPath, cm)
	m.installed(".codex", codex.ManifestPath, xm)
}

func (m *machine) run() Report {
	return Run(context.Background(), Inputs{Env: m.env, Cwd: m.home, Version: plugin.Version, OS: runtime.GOOS, Arch: runtime.GOARCH})
}

func withoutEnvVars() codex.Manifest {
	x := codex.PluginManifest()
	s := x.MCPServers[plugin.Server]
	s.EnvVars = nil
	x.MCPServers = map[string]codex.Server{plugin.Server: s}
	return x
}

func hostRow(t *testing.T, r Report, host string) HostReport {
	t.Helper()
	for _, h := range r.Hosts {
		if h.Host == host {
			return h
		}
	}
	t.Fatalf("no %s row in %+v", host, r.Hosts)
	return HostReport{}
}

func TestHostsAgreeOnACustomDatabase(t *testing.T) {
	m := newMachine(t)
	m.env["AGENTOOL_COLLAB_DB"] = filepath.Join(m.home, "shared", "collab.sqlite")
	m.installBoth(claude.PluginManifest(), codex.PluginManifest())
	r := m.run()
	if !r.Agree || r.ActionNeeded() {
		t.Fatalf("want agreement, got problems %v", r.Problems)
	}
	for _, host := range []string{"claude-code", "codex"} {
		h := hostRow(t, r, host)
		if !h.Installed || h.Database.Path != m.env["AGENTOOL_COLLAB_DB"] || !slices.Contains(h.Forwarded, "AGENTOOL_COLLAB_DB") {
			t.Errorf("%s: %+v", host, h)
		}
	}
}

func TestCodexManifestWithoutEnvVarsSplitsTheJournal(t *testing.T) {
	tests := []struct {
		name, variable, value string
	}{
		{"custom database", "AGENTOOL_COLLAB_DB", "shared/collab.sqlite"},
		{"XDG data home", "XDG_DATA_HOME", "xdg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := newMachine(t)
			m.env[tt.variable] = filepath.Join(m.home, tt.value)
			m.installBoth(claude.PluginManifest(), withoutEnvVars())
			r := m.run()
			x := hostRow(t, r, "codex")
			if r.Agree || x.Agrees || !slices.Contains(x.Dropped, tt.variable) {
				t.Fatalf("want a split through %s, got %+v", tt.variable, x)
			}
			if want := filepath.Join(m.home, ".local", "share", "agenttool", "collab.sqlite"); x.Database.Path != want {
				t.Errorf("codex would open %s, want the default %s", x.Database.Path, want)
			}
			if !r.ActionNeeded() || !strings.Contains(strings.Join(r.Problems, "\n"), tt.variable) {
				t.Errorf("problems do not name %s: %v", tt.variable, r.Problems)
			}
			if !hostRow(t, r, "claude-code").Agrees {
				t.Error("Claude Code passes the whole environment and must agree")
			}
		})
	}
}

func TestOldCodexManifestAgreesOnTheDefaultButIsNoted(t *testing.T) {
	m := newMachine(t)
	m.installBoth(claude.PluginManifest(), withoutEnvVars())
	r := m.run()
	x := hostRow(t, r, "codex")
	if !x.Agrees || r.ActionNeeded() || !strings.Contains(x.Note, "env_vars lacks") {
		t.Errorf("want agreement with a note, got %+v, problems %v", x, r.Problems)
	}
}

func TestRelativeDatabaseIsAProblem(t *testing.T) {
	m := newMachine(t)
	m.env["AGENTOOL_COLLAB_DB"] = "collab.sqlite"
	m.installBoth(claude.PluginManifest(), codex.PluginManifest())
	r := m.run()
	if !r.Database.Relative || !r.ActionNeeded() {
		t.Fatalf("a relative AGENTOOL_COLLAB_DB must be flagged: %+v", r.Database)
	}
	if x := hostRow(t, r, "codex"); x.Agrees {
		t.Errorf("codex resolves the relative path in its plugin folder and cannot agree: %+v", x)
	}
}

func TestHermesEntryIsComparedWithTheShell(t *testing.T) {
	m := newMachine(t)
	shared := filepath.Join(m.home, "shared.sqlite")
	m.env["AGENTOOL_COLLAB_DB"] = shared
	entry := func(db string) []byte {
		c := hermes.ParseConfig([]byte("# my hermes\nmodel: x\n"))
		if _, err := c.SetServer(plugin.Server, hermes.Entry{Command: "/bin/server", Env: []hermes.Var{{Name: "AGENTOOL_COLLAB_DB", Value: db}}}); err != nil {
			t.Fatal(err)
		}
		return c.Bytes()
	}
	m.write(filepath.Join(m.home, ".hermes", "config.yaml"), entry(shared))
	m.write(filepath.Join(m.home, ".hermes", "profiles", "work", "config.yaml"), entry(filepath.Join(m.home, "stale.sqlite")))
	r := m.run()
	var rows []HostReport
	for _, h := range r.Hosts {
		if h.Host == "hermes" {
			rows = append(rows, h)
		}
	}
	if len(rows) != 2 || !rows[0].Agrees || rows[1].Agrees {
		t.Fatalf("want the default profile to agree and the work profile to split: %+v", rows)
	}
	if !r.ActionNeeded() {
		t.Error("a split profile must need action")
	}
}

func TestHostsWithoutEntriesAreInformational(t *testing.T) {
	r := newMachine(t).run()
	if r.ActionNeeded() || len(r.Hosts) != 3 {
		t.Fatalf("an empty machine needs nothing: %v %+v", r.Problems, r.Hosts)
	}
	for _, h := range r.Hosts {
		if h.Installed || h.Note == "" {
			t.Errorf("%+v", h)
		}
	}
}

// pluginRoot lays out a package root with the rendered manifests.
func pluginRoot(t *testing.T, m *machine, version string) string {
	root := filepath.Join(t.TempDir(), "package")
	cm, xm := claude.PluginManifest(), codex.PluginManifest()
	cm.Version, xm.Version = version, version
	m.writeJSON(filepath.Join(root, filepath.FromSlash(claude.ManifestPath)), cm)
	m.writeJSON(filepath.Join(root, filepath.FromSlash(codex.ManifestPath)), xm)
	m.writeJSON(filepath.Join(root, filepath.FromSlash(claude.MarketplacePath)), claude.PackageMarketplace())
	m.writeJSON(filepath.Join(root, filepath.FromSlash(codex.MarketplacePath)), codex.PackageMarketplace())
	for _, p := range []string{plugin.Launcher, platformBinary(runtime.GOOS, runtime.GOARCH)} {
		m.write(filepath.Join(root, filepath.FromSlash(p)), []byte("#!/bin/sh\n"))
		if err := os.Chmod(filepath.Join(root, filepath.FromSlash(p)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestPluginRootVersionsAreComparedWithTheBinary(t *testing.T) {
	m := newMachine(t)
	good := pluginRoot(t, m, plugin.Version)
	exe := filepath.Join(good, filepath.FromSlash(platformBinary(runtime.GOOS, runtime.GOARCH)))
	r := Run(context.Background(), Inputs{Env: m.env, Cwd: m.home, Version: plugin.Version, Executable: exe, OS: runtime.GOOS, Arch: runtime.GOARCH})
	if r.PluginRoot == nil || r.PluginRoot.Via != "the binary's path" || r.ActionNeeded() {
		t.Fatalf("want the binary's own root found and clean: %+v %v", r.PluginRoot, r.Problems)
	}
	if x := hostRow(t, r, "codex"); x.Installed || x.Entry == "" || !x.Agrees {
		t.Errorf("an uninstalled host reports the package manifest: %+v", x)
	}

	stale := pluginRoot(t, m, "0.3.9")
	m.write(filepath.Join(stale, "plugin.json"), []byte("{}"))
	r = Run(context.Background(), Inputs{Env: m.env, Cwd: m.home, Version: plugin.Version, PluginRoot: stale, OS: runtime.GOOS, Arch: runtime.GOARCH})
	problems := strings.Join(r.Problems, "\n")
	for _, want := range []string{".claude-plugin/plugin.json .version is 0.3.9", ".codex-plugin/plugin.json .version is 0.3.9", "plugin.json, which makes Codex ignore"} {
		if !strings.Contains(problems, want) {
			t.Errorf("problems lack %q:\n%s", want, problems)
		}
	}
}

func TestLaunchNamesTheHost(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{plugin.HostVariable: "codex"}, "codex"},
		{map[string]string{claude.RootVariable: "/p"}, "claude-code"},
		{map[string]string{}, "none"},
	} {
		if got := launchOf(Inputs{Env: tt.env}).Host; got != tt.want {
			t.Errorf("%v: got %s, want %s", tt.env, got, tt.want)
		}
	}
}

func TestFileModesAndJournal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no POSIX modes")
	}
	m := newMachine(t)
	db := filepath.Join(m.home, "data", "collab.sqlite")
	m.env["AGENTOOL_COLLAB_DB"] = db
	if r := m.run(); r.Journal.Status != JournalMissing || r.ActionNeeded() {
		t.Fatalf("a database not created yet is fine: %+v %v", r.Journal, r.Problems)
	}
	st, err := backend.Open(context.Background(), backend.Options{Path: db})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if r := m.run(); r.Journal.Status != JournalOK || r.ActionNeeded() {
		t.Fatalf("a fresh database is fine: %+v %v", r.Journal, r.Problems)
	}
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	r := m.run()
	if !r.ActionNeeded() || !strings.Contains(strings.Join(r.Problems, "\n"), "has mode 0644, want 0600") {
		t.Errorf("a readable database must be flagged: %v", r.Problems)
	}
	m.write(db, []byte("not a database"))
	if err := os.Chmod(db, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := m.run(); r.Journal.Status != JournalFailed || !r.ActionNeeded() {
		t.Errorf("a damaged file must fail the journal check: %+v", r.Journal)
	}
}

func TestASourceBuildAgainstAReleaseRootIsOneProblemWithItsFix(t *testing.T) {
	m := newMachine(t)
	root := pluginRoot(t, m, plugin.Version)
	const build = "0.0.0-20261130000000-abcdefabcdef+dirty"
	r := Run(context.Background(), Inputs{Env: m.env, Cwd: m.home, Version: build, PluginRoot: root, OS: runtime.GOOS, Arch: runtime.GOARCH})
	var versions []string
	for _, p := range r.Problems {
		if strings.Contains(p, "do not match the binary") {
			versions = append(versions, p)
		}
	}
	if len(versions) != 1 || !strings.Contains(versions[0], "fix: from a checkout, stage this build with matching manifests: agenttool-collab-mcp host stage "+root) {
		t.Errorf("want one version problem naming host stage, got %q", versions)
	}
}

func TestNoHostInstalledIsSaid(t *testing.T) {
	m := newMachine(t)
	var out strings.Builder
	if err := m.run().WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "no host installed") {
		t.Errorf("doctor on a machine without hosts:\n%s", out.String())
	}
}

func TestFileProblemsGiveTheCommandThatFixesThem(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("skipping: Windows has no such modes")
	}
	m := newMachine(t)
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.MkdirAll(filepath.Join(dir, "collab.sqlite"), 0o700); err != nil {
		t.Fatal(err)
	}
	m.env["AGENTOOL_COLLAB_DB"] = filepath.Join(dir, "collab.sqlite")
	problems := strings.Join(m.run().Problems, "\n")
	if !strings.Contains(problems, "is a directory, not a file; fix: point AGENTOOL_COLLAB_DB at a file") || strings.Contains(problems, "chmod 600") {
		t.Errorf("a directory as the database:\n%s", problems)
	}

	db := filepath.Join(t.TempDir(), "collab.sqlite")
	m.write(db, []byte{})
	if err := os.Chmod(db, 0o644); err != nil {
		t.Fatal(err)
	}
	m.env["AGENTOOL_COLLAB_DB"] = db
	if problems := strings.Join(m.run().Problems, "\n"); !strings.Contains(problems, "fix: chmod 600 "+shellQuote(db)) {
		t.Errorf("a world-readable database:\n%s", problems)
	}
}
