// Package notices generates THIRD_PARTY_NOTICES.md: the license texts of the
// Go standard library and of every module compiled into a released binary.
//
// The module set comes from `go list -deps` of the server for each released
// target, so the file follows whatever the server imports; a test fails when
// the committed file is stale, and staging checks each built binary's embedded
// module list (what `go version -m` prints) against the file.
package notices

import (
	"bufio"
	"bytes"
	"context"
	"debug/buildinfo"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/agenttool/collab/release/internal/target"
)

// Module is one module version compiled into a binary, and where its source
// (with its license files) lies in the module cache.
type Module struct {
	Path    string
	Version string
	Dir     string
}

// ID is "path version", the form used in the notices file's headings.
func (m Module) ID() string { return m.Path + " " + m.Version }

// listFormat prints the module of each dependency package, after replacement,
// skipping the standard library and the main module.
const listFormat = `{{with .Module}}{{if not .Main}}{{with .Replace}}{{.Path}}	{{.Version}}	{{.Dir}}{{else}}{{.Path}}	{{.Version}}	{{.Dir}}{{end}}{{end}}{{end}}`

// Compiled returns the modules the server imports for any of the targets,
// sorted by path, by running `go list -deps` in the repository at root.
func Compiled(ctx context.Context, root string, targets []target.Target) ([]Module, error) {
	seen := map[string]Module{}
	for _, t := range targets {
		cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", listFormat, target.MainPackage)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), t.Env()...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("go list -deps for %s: %w: %s", t, err, stderr.String())
		}
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			f := strings.Split(sc.Text(), "\t")
			if len(f) != 3 {
				continue
			}
			m := Module{Path: f[0], Version: f[1], Dir: f[2]}
			seen[m.ID()] = m
		}
	}
	mods := make([]Module, 0, len(seen))
	for _, m := range seen {
		mods = append(mods, m)
	}
	slices.SortFunc(mods, func(a, b Module) int { return strings.Compare(a.ID(), b.ID()) })
	return mods, nil
}

// InBinary returns the "path version" of every module a Go binary says it
// was built from (after replacement), as `go version -m` prints them.
func InBinary(path string) ([]string, error) {
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read build info of %s: %w", path, err)
	}
	var ids []string
	for _, d := range info.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		ids = append(ids, d.Path+" "+d.Version)
	}
	slices.Sort(ids)
	return ids, nil
}
