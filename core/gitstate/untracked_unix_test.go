//go:build unix

package gitstate

import (
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestUntrackedDigestIsNullForSpecialFiles(t *testing.T) {
	d := tempDir(t)
	if err := unix.Mkfifo(filepath.Join(d, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := untrackedDigest(d, listing("pipe"), Limits{}.withDefaults(), time.Now()); ok {
		t.Fatal("a FIFO cannot be digested")
	}
}
