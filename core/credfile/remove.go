package credfile

import (
	"errors"
	"io/fs"
	"os"
)

// Remove deletes the credential file at path, as done when its session ends.
//
// A path that does not exist is not an error. Otherwise the parent directory
// must be private (session_directory_not_private) and the path must be a
// regular file, not a symlink, owned by this user (session_file_unsafe); an
// unsafe path is left exactly as found — never chmod-ed, never followed.
// Failing to unlink is session_file_remove_failed.
func Remove(path string) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return errRemoveFailed()
	}
	if err := checkDirectory(path, errRemoveFailed()); err != nil {
		return err
	}
	if !isOwnedRegularFile(fi) {
		return errUnsafeRemove()
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return errRemoveFailed()
	}
	return nil
}
