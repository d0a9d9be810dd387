//go:build !unix

package credfile

import (
	"io/fs"
	"os"

	"github.com/agenttool/collab/core/fileowner"
)

// privateMode always holds on platforms whose os.FileMode does not carry
// group/other permission bits (Windows synthesises 0666 or 0444).
func privateMode(fi fs.FileInfo) bool { return fileowner.ClosedToOthers(fi) }

// openNoFollow opens path for reading. Without O_NOFOLLOW the caller's
// lstat-then-SameFile comparison is what rejects a swapped-in link.
func openNoFollow(path string) (*os.File, error) { return fileowner.OpenNoFollow(path) }

// syncDir is a no-op: directories cannot be opened for fsync on Windows.
func syncDir(string) error { return nil }
