package credfile

import (
	"github.com/agenttool/collab/core/fileowner"
	"io/fs"
	"os"
	"path/filepath"
)

// ownedByCurrentUser is collab's one owner check (core/fileowner): the
// file belongs to this process's real uid.
func ownedByCurrentUser(fi fs.FileInfo) bool { return fileowner.Mine(fi) }

// isPrivateDirectory reports whether fi (from Lstat) is a real directory, not
// a symlink, owned by this user and closed to group and other users.
func isPrivateDirectory(fi fs.FileInfo) bool {
	return fi.Mode()&fs.ModeSymlink == 0 && fi.IsDir() && ownedByCurrentUser(fi) && privateMode(fi)
}

// isOwnedRegularFile reports whether fi (from Lstat) is a regular file, not a
// symlink, owned by this user. Privacy of its mode is checked separately
// because read and remove treat it differently.
func isOwnedRegularFile(fi fs.FileInfo) bool {
	return fi.Mode().IsRegular() && ownedByCurrentUser(fi)
}

// checkDirectory validates the directory holding path. A directory that
// cannot be inspected at all yields failure (the caller's own "failed" code);
// one that exists but is not private yields session_directory_not_private.
func checkDirectory(path string, failure error) error {
	fi, err := os.Lstat(filepath.Dir(path))
	if err != nil {
		return failure
	}
	if !isPrivateDirectory(fi) {
		return errDirectoryNotPrivate()
	}
	return nil
}
