// Package manifest reads npm/files.txt, the one explicit list of files in the
// npm package (which is also the plugin root), and resolves it against a
// checkout. Staging copies exactly these files and verification refuses any
// other, so adding a file to the package means adding a line there.
package manifest

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/agenttool/collab/release/internal/target"
)

// Path is where the list lives, relative to the repository root.
const Path = "npm/files.txt"

// Template is the package.json template, relative to the repository root.
const Template = "npm/package.json"

// Kind says where an entry's bytes come from.
type Kind int

const (
	// Copy entries are copied byte for byte from Source in the checkout.
	Copy Kind = iota
	// PackageJSON is package.json rendered from Template.
	PackageJSON
	// Binary entries are the server built for Target.
	Binary
)

// Entry is one file of the package.
type Entry struct {
	Path     string        // slash path inside the package
	Mode     fs.FileMode   // 0755 or 0644
	Kind     Kind          // where the bytes come from
	Source   string        // repository-relative source, for Copy
	Target   target.Target // for Binary
	Optional bool          // staged only if Source exists
}

// List is the parsed files.txt, in file order.
type List []Entry

// Load reads and parses files.txt from the checkout at root.
func Load(root string) (List, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(Path)))
	if err != nil {
		return nil, fmt.Errorf("read package file list: %w", err)
	}
	return Parse(data)
}

// Parse parses the files.txt format and checks that every path is a clean
// relative slash path, listed once, with a mode of 0644 or 0755, that every
// released target has exactly one binary, and that package.json is listed.
func Parse(data []byte) (List, error) {
	var list List
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		e, err := parseLine(line)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", Path, n, err)
		}
		list = append(list, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", Path, err)
	}
	return list, list.check()
}

func parseLine(line string) (Entry, error) {
	f := strings.Fields(line)
	if len(f) < 3 || len(f) > 4 || (len(f) == 4 && f[3] != "optional") {
		return Entry{}, fmt.Errorf("want <path> <mode> <source> [optional], got %q", line)
	}
	e := Entry{Path: f[0], Optional: len(f) == 4}
	if err := checkRelative(e.Path); err != nil {
		return Entry{}, err
	}
	mode, err := strconv.ParseUint(f[1], 8, 32)
	if err != nil || (mode != 0o644 && mode != 0o755) {
		return Entry{}, fmt.Errorf("%s: mode %q must be 0644 or 0755", e.Path, f[1])
	}
	e.Mode = fs.FileMode(mode)
	switch src := f[2]; {
	case src == "package.json":
		e.Kind = PackageJSON
	case strings.HasPrefix(src, "go:"):
		t, err := target.Parse(strings.TrimPrefix(src, "go:"))
		if err != nil {
			return Entry{}, fmt.Errorf("%s: %w", e.Path, err)
		}
		e.Kind, e.Target = Binary, t
	default:
		if err := checkRelative(src); err != nil {
			return Entry{}, err
		}
		e.Kind, e.Source = Copy, src
	}
	if e.Optional && e.Kind != Copy {
		return Entry{}, fmt.Errorf("%s: only copied files can be optional", e.Path)
	}
	return e, nil
}

func checkRelative(p string) error {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, `\`) {
		return fmt.Errorf("path %q must be a clean relative slash path", p)
	}
	return nil
}

func (l List) check() error {
	seen := map[string]bool{}
	binaries := map[target.Target]int{}
	hasPackageJSON := false
	for _, e := range l {
		if seen[e.Path] {
			return fmt.Errorf("%s lists %s twice", Path, e.Path)
		}
		seen[e.Path] = true
		switch e.Kind {
		case PackageJSON:
			if e.Path != "package.json" {
				return fmt.Errorf("%s: the rendered package.json must sit at the package root", e.Path)
			}
			hasPackageJSON = true
		case Binary:
			binaries[e.Target]++
			if e.Mode != 0o755 {
				return fmt.Errorf("%s: binaries must be 0755", e.Path)
			}
		}
	}
	if !hasPackageJSON {
		return fmt.Errorf("%s does not list package.json", Path)
	}
	for _, t := range target.All {
		if binaries[t] != 1 {
			return fmt.Errorf("%s must list exactly one binary for %s, found %d", Path, t, binaries[t])
		}
	}
	return nil
}

// Resolve returns the entries that belong in a package staged from the
// checkout at root: every required entry, and each optional one whose source
// exists. A missing required source is an error.
func (l List) Resolve(root string) (List, error) {
	var out List
	for _, e := range l {
		if e.Kind == Copy {
			_, err := os.Stat(filepath.Join(root, filepath.FromSlash(e.Source)))
			switch {
			case err == nil:
			case e.Optional && os.IsNotExist(err):
				continue
			default:
				return nil, fmt.Errorf("package file %s: source: %w", e.Path, err)
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// Paths returns the package paths of l, sorted.
func (l List) Paths() []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = e.Path
	}
	slices.Sort(out)
	return out
}

// Lookup returns the entry for a package path.
func (l List) Lookup(p string) (Entry, bool) {
	for _, e := range l {
		if e.Path == p {
			return e, true
		}
	}
	return Entry{}, false
}
