//go:build unix

package fileowner

import (
	"io/fs"
	"os"
	"syscall"
)

// Mine reports whether info (from os.Lstat or os.Stat) belongs to this
// process's real uid. A FileInfo that carries no stat data is not mine.
func Mine(info fs.FileInfo) bool { return ownedBy(info, os.Getuid()) }

// ownedBy reports whether info belongs to uid.
func ownedBy(info fs.FileInfo, uid int) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && uint64(st.Uid) == uint64(uid)
}

// LinkCount returns how many directory entries name the file (1 when the
// FileInfo carries no stat data).
func LinkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
