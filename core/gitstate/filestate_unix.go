//go:build unix

package gitstate

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// fileState is the part of an open file's status that must not change while
// its contents are hashed: device, inode, size, mode and the modification
// and change times.
type fileState struct {
	dev, ino     uint64
	size         int64
	mode         uint32
	mtime, ctime int64
	regular      bool
}

// statOpen reads the status of an open file.
func statOpen(f *os.File) (fileState, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileState{}, fmt.Errorf("fstat %s: %w", f.Name(), err)
	}
	mode := uint32(st.Mode)
	return fileState{
		dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size, mode: mode,
		mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(),
		regular: mode&unix.S_IFMT == unix.S_IFREG,
	}, nil
}
