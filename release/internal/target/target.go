// Package target lists the platforms agenttool-collab-mcp is released for and
// the exact build settings that make each binary byte-reproducible.
//
// .goreleaser.yaml carries the same settings for GoReleaser; a test in this
// package fails when the two disagree, so a native build here and a GoReleaser
// build of the same commit give identical bytes.
package target

import (
	"fmt"
	"strings"
)

// Binary is the file name of the server binary on Unix; Windows adds ".exe".
const Binary = "agenttool-collab-mcp"

// MainPackage is the import path, relative to the repository root, that the
// release builds.
const MainPackage = "./cmd/agenttool-collab-mcp"

// Target is one GOOS/GOARCH pair and how it is named in the npm package.
type Target struct {
	GOOS   string
	GOARCH string
}

// All is every released target, in a fixed order.
var All = []Target{
	{"darwin", "amd64"},
	{"darwin", "arm64"},
	{"linux", "amd64"},
	{"linux", "arm64"},
	{"windows", "amd64"},
	{"windows", "arm64"},
}

// Parse reads "goos/goarch" and returns the target if it is released.
func Parse(s string) (Target, error) {
	goos, goarch, ok := strings.Cut(s, "/")
	if !ok {
		return Target{}, fmt.Errorf("target %q: want goos/goarch", s)
	}
	t := Target{goos, goarch}
	for _, known := range All {
		if known == t {
			return t, nil
		}
	}
	return Target{}, fmt.Errorf("target %q is not a released platform", s)
}

// ParseList reads a comma-separated list of "goos/goarch"; "all" means All.
func ParseList(s string) ([]Target, error) {
	if s == "all" {
		return append([]Target(nil), All...), nil
	}
	var out []Target
	for _, part := range strings.Split(s, ",") {
		t, err := Parse(strings.TrimSpace(part))
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// String returns "goos/goarch".
func (t Target) String() string { return t.GOOS + "/" + t.GOARCH }

// Exe returns the binary's file name for this target.
func (t Target) Exe() string {
	if t.GOOS == "windows" {
		return Binary + ".exe"
	}
	return Binary
}

// NPMPlatform returns the folder name under bin/ in the npm package: Node's
// process.platform and process.arch joined by "-" (linux-x64, win32-arm64, ...),
// which is what the Node shim computes at run time.
func (t Target) NPMPlatform() string {
	platform := t.GOOS
	if platform == "windows" {
		platform = "win32"
	}
	arch := t.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	return platform + "-" + arch
}
