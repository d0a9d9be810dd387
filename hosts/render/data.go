package render

import (
	"fmt"
	"strings"

	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/hostnames"
	"github.com/agenttool/collab/hosts/mcp"
	"github.com/agenttool/collab/hosts/plugin"
)

// data is what the text templates see.
type data struct {
	Version      string
	Plugin       string
	Marketplace  string
	Server       string
	NPMPackage   string
	Repository   string
	Launcher     string
	Skill        string
	HermesSkill  string
	HostVariable string
	ServerEnv    []string
	Limit        int

	CodexNamespace string
	ClaudePrefix   string
	HermesPrefix   string
	LegacyPrefix   string

	// Tools is every tool with its title and per-host names, in tools/list order.
	Tools []tool
	// Longest is the longest name under each host.
	Longest []hostnames.Name

	ClaudeInstall   []string
	CodexInstall    []string
	ClaudeUninstall []string
	CodexUninstall  []string
	ClaudeManifest  string
	CodexManifest   string
}

// tool is one row of the name tables.
type tool struct {
	Name, Title, Class string
	Claude, Codex      string
	Hermes, Legacy     string
}

func newData() data {
	defs := mcp.Definitions()
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	schemes := hostnames.Schemes(plugin.Name, plugin.Server)
	d := data{
		Version: plugin.Version, Plugin: plugin.Name, Marketplace: plugin.Marketplace, Server: plugin.Server,
		NPMPackage: plugin.NPMPackage, Repository: plugin.Repository, Launcher: plugin.Launcher,
		Skill: plugin.Skill, HermesSkill: plugin.HermesSkill, HostVariable: plugin.HostVariable,
		ServerEnv: plugin.ServerEnv(), Limit: hostnames.Limit,
		CodexNamespace:  hostnames.CodexNamespace(plugin.Server),
		Longest:         hostnames.Longest(schemes, names),
		ClaudeInstall:   commands(claude.InstallCommands("<package dir>")),
		CodexInstall:    commands(codex.InstallCommands("<package dir>")),
		ClaudeUninstall: commands(claude.UninstallCommands()),
		CodexUninstall:  commands(codex.UninstallCommands()),
		ClaudeManifest:  claude.ManifestPath,
		CodexManifest:   codex.ManifestPath,
	}
	for _, s := range schemes {
		switch s.Host {
		case hostnames.Claude:
			d.ClaudePrefix = s.Prefix
		case hostnames.Hermes:
			d.HermesPrefix = s.Prefix
		case hostnames.HermesLegacy:
			d.LegacyPrefix = s.Prefix
		}
	}
	for i, row := range hostnames.Table(schemes, names) {
		t := tool{Name: row.Tool, Title: defs[i].Title, Class: defs[i].Class.String()}
		for _, n := range row.Names {
			switch n.Host {
			case hostnames.Claude:
				t.Claude = n.Qualified
			case hostnames.Codex:
				t.Codex = n.Qualified
			case hostnames.Hermes:
				t.Hermes = n.Qualified
			case hostnames.HermesLegacy:
				t.Legacy = n.Qualified
			}
		}
		d.Tools = append(d.Tools, t)
	}
	return d
}

func commands(cmds [][]string) []string {
	out := make([]string, len(cmds))
	for i, c := range cmds {
		out[i] = strings.Join(c, " ")
	}
	return out
}

// pick returns the rows of the named tools, in the order given; an
// unknown name is an error, so a renamed tool fails the render.
func (d data) pick(names ...string) ([]tool, error) {
	var out []tool
	for _, n := range names {
		found := false
		for _, t := range d.Tools {
			if t.Name == n {
				out, found = append(out, t), true
			}
		}
		if !found {
			return nil, fmt.Errorf("no tool named %s", n)
		}
	}
	return out, nil
}
