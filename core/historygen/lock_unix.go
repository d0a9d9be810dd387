//go:build unix

package historygen

import (
	"fmt"
	"os"
	"syscall"
)

// lock takes an exclusive lock on path, waiting for it, so that two
// processes never build the same fixture at once.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open fixture lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock fixture: %w", err)
	}
	return func() { f.Close() }, nil
}
