// Package hostnames computes the tool names each host shows the model for
// an MCP server's tools, and finds the ones that break a host's limit.
//
// Hosts qualify a server's bare tool name with their own prefix:
//
//	Claude Code (plugin server)  mcp__plugin_<plugin>_<server>__<tool>
//	Codex                        namespace mcp__<server>, tool <tool>
//	Hermes (current)             mcp__<server>__<tool>
//	Hermes (older releases)      mcp_<server>_<tool>
//
// A qualified name longer than Limit characters is hashed or truncated by
// the host, or breaks its tool search, so every name must fit.
package hostnames

import "strings"

// Limit is the longest qualified tool name every host accepts unchanged.
const Limit = 64

// Host identifies one naming scheme.
type Host string

// The schemes this package knows.
const (
	Claude       Host = "claude-code"
	Codex        Host = "codex"
	Hermes       Host = "hermes"
	HermesLegacy Host = "hermes-legacy"
)

// Scheme qualifies bare tool names the way one host does.
type Scheme struct {
	Host Host
	// Prefix is what the host puts before the bare tool name.
	Prefix string
}

// Qualify returns the model-visible name of tool under s.
func (s Scheme) Qualify(tool string) string {
	return s.Prefix + sanitize(tool, false)
}

// Schemes returns the scheme of every host for a plugin name and a
// configured server key, in a fixed order.
func Schemes(plugin, server string) []Scheme {
	return []Scheme{
		{Claude, "mcp__plugin_" + sanitize(plugin, false) + "_" + sanitize(server, false) + "__"},
		{Codex, CodexNamespace(server) + "__"},
		{Hermes, "mcp__" + sanitize(server, false) + "__"},
		{HermesLegacy, "mcp_" + sanitize(server, true) + "_"},
	}
}

// CodexNamespace returns the namespace Codex groups a server's tools under.
// The model sees the bare tool name inside it; the namespace plus "__" plus
// the tool is the fully qualified name that the length limit applies to.
func CodexNamespace(server string) string {
	return "mcp__" + sanitize(server, true)
}

// sanitize replaces every character outside [A-Za-z0-9_-] with "_"; with
// noHyphen set it replaces "-" too.
func sanitize(s string, noHyphen bool) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			return r
		case r == '-' && !noHyphen:
			return r
		}
		return '_'
	}, s)
}

// Name is one tool's qualified name under one host.
type Name struct {
	Host      Host
	Tool      string
	Qualified string
}

// Len is the qualified name's length in characters.
func (n Name) Len() int { return len([]rune(n.Qualified)) }

// Row holds one tool's qualified name under every scheme, in scheme order.
type Row struct {
	Tool  string
	Names []Name
}

// Table qualifies every tool under every scheme, in tool order.
func Table(schemes []Scheme, tools []string) []Row {
	rows := make([]Row, 0, len(tools))
	for _, tool := range tools {
		row := Row{Tool: tool}
		for _, s := range schemes {
			row.Names = append(row.Names, Name{Host: s.Host, Tool: tool, Qualified: s.Qualify(tool)})
		}
		rows = append(rows, row)
	}
	return rows
}

// Overlong returns every qualified name longer than Limit.
func Overlong(schemes []Scheme, tools []string) []Name {
	var out []Name
	for _, row := range Table(schemes, tools) {
		for _, n := range row.Names {
			if n.Len() > Limit {
				out = append(out, n)
			}
		}
	}
	return out
}

// Longest returns the longest qualified name under each scheme, in scheme
// order; the first tool wins a tie.
func Longest(schemes []Scheme, tools []string) []Name {
	out := make([]Name, len(schemes))
	for _, row := range Table(schemes, tools) {
		for i, n := range row.Names {
			if n.Len() > out[i].Len() {
				out[i] = n
			}
		}
	}
	return out
}
