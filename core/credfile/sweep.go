package credfile

import (
	"os"
	"path/filepath"
	"strings"
)

// SweepTemps removes temporary files a killed writer left beside path
// (`<path>.tmp-<random>`, each holding a copy of the bearer token). Only
// regular files owned by this user are removed; failures are ignored, as
// the sweep is housekeeping. Call it for a session's own file only: other
// sessions' writers may be mid-write in the same directory.
func SweepTemps(path string) {
	dir, prefix := filepath.Dir(path), filepath.Base(path)+".tmp-"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		full := filepath.Join(dir, e.Name())
		if info, err := os.Lstat(full); err == nil && info.Mode().IsRegular() && ownedByCurrentUser(info) {
			_ = os.Remove(full)
		}
	}
}
