package render_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/plugin"
	"github.com/agenttool/collab/hosts/render"
)

// versions collects every "version" value anywhere in a JSON document.
func versions(v any, path string, out map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if s, ok := child.(string); ok && k == "version" {
				out[path+"."+k] = s
			}
			versions(child, path+"."+k, out)
		}
	case []any:
		for _, child := range x {
			versions(child, path+"[]", out)
		}
	}
}

func TestEveryManifestOnDiskCarriesThePluginVersion(t *testing.T) {
	files, err := render.Render()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		found := map[string]string{}
		versions(doc, "", found)
		for where, v := range found {
			checked++
			if v != plugin.Version {
				t.Errorf("%s%s is %q, want %q (hosts/plugin.Version)", f.Path, where, v, plugin.Version)
			}
		}
	}
	// plugin.json ×2, the Claude marketplaces' metadata, entries and npm
	// source, the Codex repository marketplace's npm source.
	if checked < 8 {
		t.Errorf("checked only %d version fields", checked)
	}
}

func TestNoPortablePluginManifestAtTheRoot(t *testing.T) {
	for _, name := range []string{"plugin.json", "mcp.json", ".mcp.json"} {
		if _, err := os.Stat(filepath.Join(repoRoot, name)); err == nil {
			t.Errorf("%s at the package root would make Codex ignore .codex-plugin and its env_vars", name)
		}
	}
}

func TestSkillNamesMatchTheirFolders(t *testing.T) {
	files, err := render.Render()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Base(f.Path) != "SKILL.md" {
			continue
		}
		dir := filepath.Base(filepath.Dir(f.Path))
		if !strings.HasPrefix(string(f.Data), "---\nname: "+dir+"\ndescription: ") {
			t.Errorf("%s: front matter does not start with name %q and a description", f.Path, dir)
		}
	}
}

func TestPackageListsEveryGeneratedPluginFile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "npm", "files.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && !strings.HasPrefix(f[0], "#") {
			sources[f[0]] = f[2]
		}
	}
	want := map[string]string{
		".claude-plugin/plugin.json":                                  ".claude-plugin/plugin.json",
		".claude-plugin/marketplace.json":                             render.PackageMarketplaceDir + "/.claude-plugin/marketplace.json",
		".codex-plugin/plugin.json":                                   ".codex-plugin/plugin.json",
		".agents/plugins/marketplace.json":                            render.PackageMarketplaceDir + "/.agents/plugins/marketplace.json",
		plugin.SkillsDir + "/" + plugin.Skill + "/SKILL.md":           plugin.SkillsDir + "/" + plugin.Skill + "/SKILL.md",
		plugin.SkillsDir + "/" + plugin.Skill + "/agents/openai.yaml": plugin.SkillsDir + "/" + plugin.Skill + "/agents/openai.yaml",
		plugin.HermesSkillDir + "/SKILL.md":                           plugin.HermesSkillDir + "/SKILL.md",
		plugin.Launcher:                                               "npm/launcher.sh",
		plugin.Launcher + ".cmd":                                      "npm/launcher.cmd",
	}
	for path, src := range want {
		if got := sources[path]; got != src {
			t.Errorf("npm/files.txt: %s comes from %q, want %q", path, got, src)
		}
	}
}
