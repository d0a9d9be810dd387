package sqlite

import (
	"io/fs"

	"github.com/agenttool/collab/core/fileowner"
)

// ownedByMe is collab's one owner check (core/fileowner): the file belongs
// to this process's real uid, as the reference decides.
func ownedByMe(info fs.FileInfo) bool { return fileowner.Mine(info) }

// linkCount returns how many directory entries name the file.
func linkCount(info fs.FileInfo) uint64 { return fileowner.LinkCount(info) }
