//go:build !unix

package fileowner

import (
	"io/fs"
	"os"
)

// ClosedToOthers always holds: os.FileMode carries no group or other bits
// here (Windows synthesises 0666 or 0444); access is left to the ACLs.
func ClosedToOthers(fs.FileInfo) bool { return true }

// OpenNoFollow opens path for reading. Without O_NOFOLLOW the caller's
// lstat-then-SameFile comparison is what rejects a swapped-in link.
func OpenNoFollow(path string) (*os.File, error) { return os.Open(path) }
