//go:build !unix

package sqlite

import "io/fs"

// On platforms without POSIX ownership the file-type checks still apply;
// ownership and link counts are not observable through fs.FileInfo.
func ownedByMe(fs.FileInfo) bool { return true }

func linkCount(fs.FileInfo) uint64 { return 1 }
