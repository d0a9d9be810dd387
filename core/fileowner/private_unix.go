//go:build unix

package fileowner

import (
	"io/fs"
	"os"
	"syscall"
)

// ClosedToOthers reports whether info grants nothing to group or other
// users.
func ClosedToOthers(info fs.FileInfo) bool { return info.Mode().Perm()&0o077 == 0 }

// OpenNoFollow opens path for reading without following a final symlink
// (the open fails instead) and without blocking on a FIFO swapped in after
// an lstat check. Callers compare the descriptor's Stat with what they
// checked.
func OpenNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
