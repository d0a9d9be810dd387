//go:build unix

package credfile

import (
	"io/fs"
	"os"
	"syscall"
)

// privateMode reports whether fi grants nothing to group or other users.
func privateMode(fi fs.FileInfo) bool {
	return fi.Mode().Perm()&0o077 == 0
}

// openNoFollow opens path for reading without following a final symlink and
// without blocking on a FIFO swapped in after the lstat check.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}

// syncDir flushes a directory entry change (rename, link, unlink) to disk.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
