// Package claude holds what is particular to Claude Code: its plugin and
// marketplace manifests, how it launches the server and which environment
// the server receives, and the commands that install the plugin.
package claude

import (
	"github.com/agenttool/collab/hosts/hostnames"
	"github.com/agenttool/collab/hosts/plugin"
)

// RootVariable is the variable Claude Code sets to the plugin root when it
// starts a plugin's server, and expands in the manifest's command and env.
const RootVariable = "CLAUDE_PLUGIN_ROOT"

// ManifestPath is the plugin manifest, relative to the plugin root.
const ManifestPath = ".claude-plugin/plugin.json"

// MarketplacePath is the marketplace manifest, relative to a marketplace root.
const MarketplacePath = ".claude-plugin/marketplace.json"

// Manifest is the subset of .claude-plugin/plugin.json this plugin writes
// and doctor reads back.
type Manifest struct {
	Name        string            `json:"name"`
	Version     string            `json:"version"`
	Description string            `json:"description,omitempty"`
	Author      *Person           `json:"author,omitempty"`
	Homepage    string            `json:"homepage,omitempty"`
	Repository  string            `json:"repository,omitempty"`
	License     string            `json:"license,omitempty"`
	Keywords    []string          `json:"keywords,omitempty"`
	Skills      string            `json:"skills,omitempty"`
	MCPServers  map[string]Server `json:"mcpServers,omitempty"`
	// Hooks and Experimental (monitors) wake the agent: see wake.go.
	Hooks        map[string][]HookGroup `json:"hooks,omitempty"`
	Experimental *Experimental          `json:"experimental,omitempty"`
	// Channels declares the server as a channel: see channel.go.
	Channels []Channel `json:"channels,omitempty"`
}

// Person names an author or owner.
type Person struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// Server is one stdio MCP server entry. Claude Code starts it in the
// session's project directory, so the command must be absolute: it is
// written with ${CLAUDE_PLUGIN_ROOT}, which Claude Code expands.
type Server struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

// PluginManifest returns the plugin manifest this package ships.
func PluginManifest() Manifest {
	return Manifest{
		Name:        plugin.Name,
		Version:     plugin.Version,
		Description: plugin.Description,
		Author:      &Person{Name: plugin.Author, URL: plugin.Repository},
		Homepage:    plugin.Repository,
		Repository:  plugin.Repository,
		License:     plugin.License,
		Keywords:    plugin.Keywords(),
		Skills:      "./" + plugin.SkillsDir + "/",
		MCPServers: map[string]Server{
			plugin.Server: {
				Command: "${" + RootVariable + "}/" + plugin.Launcher,
				Args:    []string{},
				Env:     map[string]string{plugin.HostVariable: string(Host), ChannelVariable: "1"},
			},
		},
		Hooks:        WakeHooks(),
		Experimental: WakeMonitors(),
		Channels:     Channels(),
	}
}

// Host is this host's naming scheme, and the value its server entry gives
// plugin.HostVariable.
const Host = hostnames.Claude
