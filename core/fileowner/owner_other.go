//go:build !unix

package fileowner

import "io/fs"

// Mine always holds: ownership is not observable through fs.FileInfo here.
func Mine(fs.FileInfo) bool { return true }

// LinkCount is always 1: link counts are not observable here.
func LinkCount(fs.FileInfo) uint64 { return 1 }
