package stage

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// entry is one line of npm/files.txt.
type entry struct {
	path     string // path in the package, slash-separated
	mode     os.FileMode
	source   string // checkout path, "package.json" or "go:<goos>/<goarch>"
	optional bool
}

// readList parses npm/files.txt: `<path> <mode> <source> [optional]`,
// blank lines and # comments skipped.
func readList(file string) ([]entry, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read the package file list (is this a checkout of the repository?): %w", err)
	}
	var out []entry
	for n, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		mode, err := strconv.ParseUint(f[1%len(f)], 8, 32)
		if len(f) < 3 || len(f) > 4 || err != nil || (len(f) == 4 && f[3] != "optional") || strings.Contains(f[0], "..") {
			return nil, fmt.Errorf("%s:%d: want <path> <mode> <source> [optional], got %q", file, n+1, line)
		}
		out = append(out, entry{path: f[0], mode: os.FileMode(mode), source: f[2], optional: len(f) == 4})
	}
	return out, nil
}

// FindCheckout returns the nearest folder at or above dir that holds the
// package file list, i.e. the root of a checkout of this repository.
func FindCheckout(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, filepath.FromSlash(FileList))); err == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("no checkout of the repository at or above %s (no %s); run this from a checkout or pass --from", dir, FileList)
		}
		d = parent
	}
}
