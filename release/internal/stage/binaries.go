// Package stage assembles the npm package root from a build and packs it once
// with `npm pack`: exactly the files of npm/files.txt, modes normalised to
// 0755 for launchers and binaries and 0644 for the rest, so the tarball does
// not depend on the checkout's umask or file times.
package stage

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenttool/collab/release/internal/target"
)

// Binaries maps each released target to the built binary's path.
type Binaries map[target.Target]string

// artifact is the part of a GoReleaser dist/artifacts.json entry used here.
type artifact struct {
	Type   string `json:"type"`
	Path   string `json:"path"`
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
}

// FromGoReleaser reads the binaries a GoReleaser run recorded in
// <dist>/artifacts.json. Relative paths there are relative to the directory
// GoReleaser ran in (the repository root); root resolves them.
func FromGoReleaser(root, dist string) (Binaries, error) {
	data, err := os.ReadFile(filepath.Join(dist, "artifacts.json"))
	if err != nil {
		return nil, fmt.Errorf("read GoReleaser artifacts: %w", err)
	}
	var arts []artifact
	if err := json.Unmarshal(data, &arts); err != nil {
		return nil, fmt.Errorf("parse GoReleaser artifacts: %w", err)
	}
	out := Binaries{}
	for _, a := range arts {
		if a.Type != "Binary" {
			continue
		}
		t, err := target.Parse(a.GOOS + "/" + a.GOARCH)
		if err != nil {
			return nil, fmt.Errorf("GoReleaser built %s: %w", a.Path, err)
		}
		if _, dup := out[t]; dup {
			return nil, fmt.Errorf("GoReleaser built two binaries for %s", t)
		}
		p := a.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		out[t] = p
	}
	return out, nil
}

// FromDir reads binaries laid out as <dir>/<npm platform>/<exe>, the layout
// of `release gobuild`.
func FromDir(dir string, targets []target.Target) Binaries {
	out := Binaries{}
	for _, t := range targets {
		out[t] = filepath.Join(dir, t.NPMPlatform(), t.Exe())
	}
	return out
}

// Complete returns an error unless every released target has a binary.
func (b Binaries) Complete() error {
	for _, t := range target.All {
		if _, ok := b[t]; !ok {
			return fmt.Errorf("no binary for %s in the build output", t)
		}
	}
	return nil
}
