// Package plugin names the one plugin that Claude Code, Codex and Hermes
// install from the same package root: its names, its version, where its
// launcher sits and which environment variables the server reads. Every
// manifest, skill and document is rendered from these values, so changing
// one here and regenerating keeps all hosts in step.
package plugin

import "github.com/agenttool/collab/core/place"

// Version is the plugin version written into every manifest. It is the one
// source for manifest versions; a release tag must carry the same number.
const Version = "0.4.0"

// Names every host sees. They are short on purpose: Claude Code prefixes
// each tool with both the plugin and the server name, and the result must
// stay within 64 characters (see package hostnames).
const (
	// Name is the plugin name in Claude Code and Codex (`collab@agenttool`).
	Name = "collab"
	// Marketplace is the marketplace name both hosts register.
	Marketplace = "agenttool"
	// Server is the configured MCP server key in every host. Hosts build
	// model-visible tool names from this key, not from serverInfo.
	Server = "agenttool"
	// DisplayName is the human title hosts show in their plugin lists.
	DisplayName = "agenttool collab"
)

// Package facts shared by the manifests.
const (
	// NPMPackage is the npm package whose root is the plugin root.
	NPMPackage = "@agenttool/collab-mcp"
	// Repository is the project's source repository.
	Repository = "https://github.com/agenttool/collab"
	// Author is the publisher named in the manifests.
	Author = "agenttool"
	// License is the SPDX license identifier of the package.
	License = "Apache-2.0"
)

// Paths inside the plugin root, slash-separated.
const (
	// Launcher is the POSIX sh launcher that picks the platform binary.
	// On Windows hosts resolve the same name to Launcher + ".cmd".
	Launcher = "bin/agenttool-collab-mcp"
	// BinaryName is the server executable's base name (plus ".exe" on Windows).
	BinaryName = "agenttool-collab-mcp"
	// SkillsDir holds the skills Claude Code and Codex load.
	SkillsDir = "skills"
	// Skill is the skill shared by Claude Code and Codex.
	Skill = "coordinate-agent-work"
	// HermesSkill is the Hermes flavour of the skill.
	HermesSkill = "coordinate-agent-work-hermes"
	// HermesSkillDir is where the Hermes skill lives in the repository and package.
	HermesSkillDir = "integrations/hermes/skills/" + HermesSkill
)

// HostVariable is set by every host entry to the host's name, so the server
// and doctor can tell which host started the process.
const HostVariable = place.EnvHost

// ServerEnv returns the variables the server reads from its environment, in
// the order the manifests list them. A host that does not forward one of
// them to the server can open a different journal than the user's shell.
func ServerEnv() []string { return place.ServerVariables() }
