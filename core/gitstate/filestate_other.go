//go:build !unix

package gitstate

import (
	"fmt"
	"os"
)

// fileState is the part of an open file's status that must not change while
// its contents are hashed. Without a Unix stat it is the size, permission
// bits and modification time that the platform reports.
type fileState struct {
	size    int64
	mode    uint32
	mtime   int64
	regular bool
}

// statOpen reads the status of an open file.
func statOpen(f *os.File) (fileState, error) {
	info, err := f.Stat()
	if err != nil {
		return fileState{}, fmt.Errorf("stat %s: %w", f.Name(), err)
	}
	return fileState{
		size: info.Size(), mode: uint32(info.Mode().Perm()),
		mtime: info.ModTime().UnixNano(), regular: info.Mode().IsRegular(),
	}, nil
}
