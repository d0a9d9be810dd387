//go:build unix

package credfile

import (
	"io/fs"
	"os"

	"github.com/agenttool/collab/core/fileowner"
)

// privateMode reports whether fi grants nothing to group or other users
// (the one rule, core/fileowner).
func privateMode(fi fs.FileInfo) bool { return fileowner.ClosedToOthers(fi) }

// openNoFollow opens path for reading without following a final symlink and
// without blocking on a FIFO swapped in after the lstat check.
func openNoFollow(path string) (*os.File, error) { return fileowner.OpenNoFollow(path) }

// syncDir flushes a directory entry change (rename, link, unlink) to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
