// Package codex holds what is particular to Codex: its plugin manifest and
// local marketplace, how it launches the server, the environment the
// server receives, and the commands that install the plugin.
package codex

import (
	"github.com/agenttool/collab/hosts/hostnames"
	"github.com/agenttool/collab/hosts/plugin"
)

// Host is this host's naming scheme, and the value its server entry gives
// plugin.HostVariable.
const Host = hostnames.Codex

// ManifestPath is the plugin manifest, relative to the plugin root. A root
// plugin.json (the portable Agent Plugins format) would take precedence
// over it and drop env_vars, so the package must not carry one.
const ManifestPath = ".codex-plugin/plugin.json"

// MarketplacePath is the marketplace manifest, relative to a marketplace root.
const MarketplacePath = ".agents/plugins/marketplace.json"

// Manifest is the subset of .codex-plugin/plugin.json this plugin writes
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
	Interface   *Interface        `json:"interface,omitempty"`
}

// Person names an author.
type Person struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// Server is one stdio MCP server entry. Codex resolves a relative command
// and cwd against the plugin root and expands no ${...} placeholders. It
// passes the server only an allowlist of variables (see Forward) plus Env
// and the variables named in EnvVars.
type Server struct {
	Type              string            `json:"type"`
	Command           string            `json:"command"`
	Args              []string          `json:"args"`
	Cwd               string            `json:"cwd,omitempty"`
	Env               map[string]string `json:"env,omitempty"`
	EnvVars           []string          `json:"env_vars,omitempty"`
	StartupTimeoutSec int               `json:"startup_timeout_sec,omitempty"`
	ToolTimeoutSec    int               `json:"tool_timeout_sec,omitempty"`
}

// Interface holds the texts Codex shows in its plugin browser.
type Interface struct {
	DisplayName      string   `json:"displayName"`
	ShortDescription string   `json:"shortDescription"`
	LongDescription  string   `json:"longDescription"`
	DeveloperName    string   `json:"developerName"`
	Category         string   `json:"category"`
	WebsiteURL       string   `json:"websiteURL"`
	DefaultPrompt    []string `json:"defaultPrompt"`
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
				Type:              "stdio",
				Command:           "./" + plugin.Launcher,
				Args:              []string{},
				Cwd:               ".",
				Env:               map[string]string{plugin.HostVariable: string(Host)},
				EnvVars:           plugin.ServerEnv(),
				StartupTimeoutSec: 30,
				ToolTimeoutSec:    120,
			},
		},
		Interface: &Interface{
			DisplayName:      plugin.DisplayName,
			ShortDescription: plugin.ShortDescription,
			LongDescription: "Lets Codex work alongside Claude Code, Hermes and other Codex sessions on the same " +
				"repository: start a credential-bound session, poll for new events, claim advisory task " +
				"leases before editing, and report, review and hand off work through one local journal.",
			DeveloperName: plugin.Author,
			Category:      "Coding",
			WebsiteURL:    plugin.Repository,
			DefaultPrompt: []string{
				"Start a collab session for this repository and show me what is waiting",
				"Claim the next ready collab task and work on it",
			},
		},
	}
}
