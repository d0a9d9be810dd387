// Package render produces every host-facing file of the plugin root from
// the facts in hosts/: the Claude Code and Codex manifests and
// marketplaces, the skills and docs/hosts.md. Nothing in those files is
// edited by hand; `go run ./hosts/render/hostgen` rewrites them and a test
// fails when one on disk differs from what Render returns.
package render

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"text/template"

	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/plugin"
)

//go:embed templates/*.tmpl
var templates embed.FS

// PackageMarketplaceDir holds the marketplace files that replace the
// repository's in the npm package (npm/files.txt maps them), where the
// plugin is the package root itself rather than the npm package.
const PackageMarketplaceDir = "integrations/plugin-root"

// File is one rendered file, at a slash path relative to the repository root.
type File struct {
	Path string
	Data []byte
}

// Render returns every generated file, sorted by path.
func Render() ([]File, error) {
	files := []File{}
	jsonFiles := map[string]any{
		claude.ManifestPath:    claude.PluginManifest(),
		claude.MarketplacePath: claude.RepoMarketplace(),
		PackageMarketplaceDir + "/" + claude.MarketplacePath: claude.PackageMarketplace(),
		codex.ManifestPath:    codex.PluginManifest(),
		codex.MarketplacePath: codex.RepoMarketplace(),
		codex.HooksPath:       codex.WakeHooks(""),
		PackageMarketplaceDir + "/" + codex.MarketplacePath: codex.PackageMarketplace(),
	}
	for path, v := range jsonFiles {
		b, err := marshal(v)
		if err != nil {
			return nil, fmt.Errorf("render %s: %w", path, err)
		}
		files = append(files, File{path, b})
	}
	textFiles := map[string]string{
		plugin.SkillsDir + "/" + plugin.Skill + "/SKILL.md":           "skill.md.tmpl",
		plugin.SkillsDir + "/" + plugin.Skill + "/agents/openai.yaml": "openai.yaml.tmpl",
		plugin.HermesSkillDir + "/SKILL.md":                           "hermes-skill.md.tmpl",
		"docs/hosts.md":                                               "hosts.md.tmpl",
	}
	d := newData()
	for path, name := range textFiles {
		b, err := execute(name, d)
		if err != nil {
			return nil, fmt.Errorf("render %s: %w", path, err)
		}
		files = append(files, File{path, b})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, nil
}

// HermesSkill returns the Hermes skill's SKILL.md, as installed by
// `agenttool-collab-mcp host install hermes`.
func HermesSkill() ([]byte, error) {
	return execute("hermes-skill.md.tmpl", newData())
}

// marshal writes v as two-space indented JSON with a final newline and
// without HTML escaping, the way people write manifests.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func execute(name string, d data) ([]byte, error) {
	t, err := template.New(name).Funcs(template.FuncMap{
		"pick": d.pick,
		"join": strings.Join,
		"code": func(s string) string { return "`" + s + "`" },
	}).ParseFS(templates, "templates/"+name)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
