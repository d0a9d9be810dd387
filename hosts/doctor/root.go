package doctor

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/plugin"
)

// Launch says which host started this process, as far as it can tell.
type Launch struct {
	Host string `json:"host"` // a host name, or "none" when run from a shell
	Via  string `json:"via,omitempty"`
}

func launchOf(in Inputs) Launch {
	if h := in.Env[plugin.HostVariable]; h != "" {
		return Launch{Host: h, Via: plugin.HostVariable}
	}
	if in.Env[claude.RootVariable] != "" {
		return Launch{Host: string(claude.Host), Via: claude.RootVariable}
	}
	return Launch{Host: "none"}
}

// root is a located plugin root and how it was found.
type root struct {
	Path, Via string
}

// findRoot locates the plugin root: the explicit override, the variables
// hosts set, or the binary's own place in bin/<os>-<arch>/.
func findRoot(in Inputs) *root {
	candidates := []root{
		{in.PluginRoot, "--plugin-root"},
		{in.Env[claude.RootVariable], claude.RootVariable},
		{in.Env["PLUGIN_ROOT"], "PLUGIN_ROOT"},
	}
	if in.Executable != "" {
		candidates = append(candidates, root{filepath.Dir(filepath.Dir(filepath.Dir(in.Executable))), "the binary's path"})
	}
	for _, c := range candidates {
		if c.Path != "" && isPluginRoot(c.Path) {
			return &c
		}
	}
	return nil
}

func isPluginRoot(dir string) bool {
	for _, m := range []string{claude.ManifestPath, codex.ManifestPath} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m))); err == nil {
			return true
		}
	}
	return false
}

// RootReport describes the plugin root and its manifests' versions.
type RootReport struct {
	Path      string            `json:"path"`
	Via       string            `json:"via"`
	Manifests []ManifestVersion `json:"manifests"`
	Problems  []string          `json:"problems"`
}

// ManifestVersion is one version field of one manifest.
type ManifestVersion struct {
	File    string `json:"file"`
	Field   string `json:"field"`
	Version string `json:"version"`
	Matches bool   `json:"matches"`
}

// rootManifests are the manifests whose versions must equal the binary's.
var rootManifests = []string{claude.ManifestPath, claude.MarketplacePath, codex.ManifestPath, codex.MarketplacePath}

func checkRoot(r root, version string) *RootReport {
	rep := &RootReport{Path: r.Path, Via: r.Via, Manifests: []ManifestVersion{}, Problems: []string{}}
	for _, m := range rootManifests {
		data, err := os.ReadFile(filepath.Join(r.Path, filepath.FromSlash(m)))
		if err != nil {
			rep.Problems = append(rep.Problems, "the plugin root lacks "+m)
			continue
		}
		var doc any
		if err := json.Unmarshal(data, &doc); err != nil {
			rep.Problems = append(rep.Problems, m+" is not valid JSON: "+err.Error())
			continue
		}
		for _, v := range versionFields(doc, "") {
			mv := ManifestVersion{File: m, Field: v[0], Version: v[1], Matches: v[1] == version}
			rep.Manifests = append(rep.Manifests, mv)
		}
	}
	if p := versionProblem(rep.Manifests, r.Path, version); p != "" {
		rep.Problems = append(rep.Problems, p)
	}
	for _, name := range []string{"plugin.json", "mcp.json"} {
		if _, err := os.Stat(filepath.Join(r.Path, name)); err == nil {
			rep.Problems = append(rep.Problems, "the plugin root has a "+name+", which makes Codex ignore .codex-plugin and its env_vars; remove it")
		}
	}
	return rep
}

// versionFields returns [path, value] for every "version" string in doc,
// sorted by path.
func versionFields(doc any, path string) [][2]string {
	var out [][2]string
	switch x := doc.(type) {
	case map[string]any:
		for k, v := range x {
			if s, ok := v.(string); ok && k == "version" {
				out = append(out, [2]string{path + "." + k, s})
			}
			out = append(out, versionFields(v, path+"."+k)...)
		}
	case []any:
		for _, v := range x {
			out = append(out, versionFields(v, path+"[]")...)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// versionProblem is one problem for every manifest version that differs
// from the binary's (not one per field), with the command that fixes it.
func versionProblem(ms []ManifestVersion, rootPath, version string) string {
	var bad []string
	for _, m := range ms {
		if !m.Matches {
			bad = append(bad, m.File+" "+m.Field+" is "+m.Version)
		}
	}
	if len(bad) == 0 {
		return ""
	}
	fix := "install the plugin of the binary's version again"
	if sourceBuild(version) {
		fix = "from a checkout, stage this build with matching manifests: agenttool-collab-mcp host stage " + rootPath
	}
	return fmt.Sprintf("the plugin root's manifests do not match the binary %s (%s); fix: %s", version, strings.Join(bad, ", "), fix)
}

// sourceBuild reports a version that no release carries: a build from a
// checkout (0.0.0-<time>-<revision>, 0.0.0-dev) or a local change (+dirty).
func sourceBuild(version string) bool {
	return strings.HasPrefix(version, "0.0.0-") || strings.Contains(version, "+")
}
