//go:build unix

package anchor

import (
	"os"
	"syscall"
)

// openLedger opens path read-only with O_NONBLOCK, so that a FIFO placed at
// the ledger path opens at once (and is then rejected as non-regular)
// instead of blocking the server until a writer appears.
func openLedger(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
