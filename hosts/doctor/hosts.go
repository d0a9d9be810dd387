package doctor

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/hermes"
	"github.com/agenttool/collab/hosts/plugin"
)

// HostReport is one host entry: where it is configured, what it passes the
// server, and the database that makes the server open.
type HostReport struct {
	Host string `json:"host"`
	// Entry is the manifest or config file the entry comes from.
	Entry string `json:"entry,omitempty"`
	// Installed is false when the host has no entry for this plugin; the
	// report then describes the package's own manifest, if there is one.
	Installed bool   `json:"installed"`
	Version   string `json:"version,omitempty"`
	// Forwarded names the variables the server reads that would reach it.
	Forwarded []string `json:"forwarded"`
	// Dropped names variables set here that would not reach the server.
	Dropped  []string `json:"dropped"`
	Database Database `json:"database"`
	Agrees   bool     `json:"agrees"`
	Note     string   `json:"note,omitempty"`
}

// relevant are the variables the database and ledger rules read.
func relevant() []string { return append(plugin.ServerEnv(), place.EnvHome) }

func evaluateHosts(in Inputs, root *root, want Database) []HostReport {
	var out []HostReport
	out = append(out, claudeEntries(in, root, want)...)
	out = append(out, codexEntries(in, root, want)...)
	return append(out, hermesEntries(in, want)...)
}

// compare fills the forwarding and agreement fields of h from the
// environment the host would give the server, started in cwd.
func compare(goos string, h HostReport, user, forwarded map[string]string, cwd string, want Database) HostReport {
	h.Forwarded, h.Dropped = []string{}, []string{}
	for _, k := range relevant() {
		got, ok := forwarded[k]
		if ok {
			h.Forwarded = append(h.Forwarded, k)
		}
		if uv, set := user[k]; set && (!ok || got != uv) {
			h.Dropped = append(h.Dropped, k)
		}
	}
	h.Database = resolve(goos, forwarded, cwd)
	h.Agrees = h.Database.Error == "" && !h.Database.Relative && h.Database.Path == want.Path
	switch {
	case h.Database.Error != "":
		h.Note = h.Database.Error
	case h.Database.Relative:
		h.Note = h.Database.Source + " is relative and resolves inside the host's working directory " + cwd
	case !h.Agrees && len(h.Dropped) > 0:
		h.Note = "the host does not pass " + strings.Join(h.Dropped, ", ") + " to the server"
	case !h.Agrees:
		h.Note = "the entry sets a different database"
	}
	return h
}

// installedCopies lists the plugin's installed manifests under a host's
// plugin cache, newest version folder last.
func installedCopies(hostDir, manifest string) []string {
	pattern := filepath.Join(hostDir, "plugins", "cache", plugin.Marketplace, plugin.Name, "*", filepath.FromSlash(manifest))
	found, _ := filepath.Glob(pattern)
	sort.Strings(found)
	return found
}

// manifestsFor returns the installed copies, or else the plugin root's own
// manifest marked as not installed.
func manifestsFor(hostDir, manifest string, r *root) (paths []string, installed bool) {
	if found := installedCopies(hostDir, manifest); len(found) > 0 {
		return found, true
	}
	if r != nil {
		p := filepath.Join(r.Path, filepath.FromSlash(manifest))
		if _, err := os.Stat(p); err == nil {
			return []string{p}, false
		}
	}
	return nil, false
}

// hostDir is a host's configuration folder: the override variable, else
// the dot folder in the user's home.
func hostDir(in Inputs, variable, dot string) string {
	if d := in.Env[variable]; d != "" {
		return d
	}
	home, _ := place.Map(in.OS, in.Env, in.Cwd).Home()
	return filepath.Join(home, dot)
}

func claudeEntries(in Inputs, r *root, want Database) []HostReport {
	paths, installed := manifestsFor(hostDir(in, "CLAUDE_CONFIG_DIR", ".claude"), claude.ManifestPath, r)
	if len(paths) == 0 {
		return []HostReport{{Host: string(claude.Host), Note: "not installed", Agrees: true, Forwarded: []string{}, Dropped: []string{}}}
	}
	var out []HostReport
	for _, p := range paths {
		h := HostReport{Host: string(claude.Host), Entry: p, Installed: installed}
		var m claude.Manifest
		if err := readJSON(p, &m); err != nil {
			h.Note = err.Error()
			out = append(out, h)
			continue
		}
		h.Version = m.Version
		pluginDir := filepath.Dir(filepath.Dir(p))
		fwd := claude.Forward(in.Env, pluginDir, m.MCPServers[plugin.Server])
		// Claude Code starts servers in the session's project; this
		// process's directory stands in for it.
		out = append(out, compare(in.OS, h, in.Env, fwd, in.Cwd, want))
	}
	return out
}

func codexEntries(in Inputs, r *root, want Database) []HostReport {
	paths, installed := manifestsFor(hostDir(in, "CODEX_HOME", ".codex"), codex.ManifestPath, r)
	if len(paths) == 0 {
		return []HostReport{{Host: string(codex.Host), Note: "not installed", Agrees: true, Forwarded: []string{}, Dropped: []string{}}}
	}
	var out []HostReport
	for _, p := range paths {
		h := HostReport{Host: string(codex.Host), Entry: p, Installed: installed}
		var m codex.Manifest
		if err := readJSON(p, &m); err != nil {
			h.Note = err.Error()
			out = append(out, h)
			continue
		}
		h.Version = m.Version
		s := m.MCPServers[plugin.Server]
		pluginDir := filepath.Dir(filepath.Dir(p))
		h = compare(in.OS, h, in.Env, codex.Forward(in.Env, s), filepath.Join(pluginDir, s.Cwd), want)
		if missing := missingEnvVars(s.EnvVars); len(missing) > 0 && h.Agrees {
			h.Note = "agrees now, but env_vars lacks " + strings.Join(missing, ", ")
		}
		out = append(out, h)
	}
	return out
}

// missingEnvVars lists server variables a Codex entry does not forward.
func missingEnvVars(listed []string) []string {
	var out []string
	for _, k := range plugin.ServerEnv() {
		if !slices.Contains(listed, k) {
			out = append(out, k)
		}
	}
	return out
}

func hermesEntries(in Inputs, want Database) []HostReport {
	env := place.Map(in.OS, in.Env, in.Cwd)
	home, err := hermes.Home("", "", env.Get, env.Home)
	if err != nil {
		return nil
	}
	configs := []string{hermes.ConfigPath(home)}
	profiles, _ := filepath.Glob(filepath.Join(home, "profiles", "*", "config.yaml"))
	sort.Strings(profiles)
	var out []HostReport
	for _, p := range append(configs, profiles...) {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		e, ok := hermes.ParseConfig(data).Server(plugin.Server)
		if !ok {
			continue
		}
		h := HostReport{Host: string(hermes.Host), Entry: p, Installed: true}
		out = append(out, compare(in.OS, h, in.Env, hermes.Forward(in.Env, e), in.Cwd, want))
	}
	if len(out) == 0 {
		return []HostReport{{Host: string(hermes.Host), Note: "not configured", Agrees: true, Forwarded: []string{}, Dropped: []string{}}}
	}
	return out
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}
