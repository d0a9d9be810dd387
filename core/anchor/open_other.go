//go:build !unix

package anchor

import "os"

// openLedger opens path read-only. Platforms outside Unix have no FIFOs
// that block on open, so no O_NONBLOCK is needed.
func openLedger(path string) (*os.File, error) {
	return os.Open(path)
}
