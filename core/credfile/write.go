package credfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Write stores c at path atomically, so a reader sees either the previous
// file or the complete new one, never a partial write.
//
// The parent directory is created 0700 when missing (an existing directory is
// never chmod-ed) and must then be private (session_directory_not_private).
// Without replace an existing path of any kind is refused
// (session_file_exists); with replace only a private regular file owned by
// this user may be replaced (session_file_unsafe). The content goes to a new
// 0600 file <path>.tmp-<random> opened with O_CREAT|O_EXCL, is fsync-ed, and is
// then renamed over path (replace) or hard-linked to it (no replace, so a
// concurrent writer cannot be overwritten); the directory is fsync-ed where
// the OS allows. Any other failure removes what was created and yields
// session_file_write_failed. Write stores c as given; it does not validate it.
func Write(path string, c Credential, replace bool) error {
	return write(path, c, replace, true)
}

// Rewrite replaces an existing credential file atomically, like Write with
// replace, but without forcing it to disk. It is for the frequent cursor
// updates after acknowledgements, whose durability should match the
// database's: a killed process never leaves a torn or half-written file
// (the rename is atomic), and an operating-system crash can at worst
// return the previous cursor, which startup then reports as a cursor
// disagreement instead of guessing.
func Rewrite(path string, c Credential) error {
	return write(path, c, true, false)
}

func write(path string, c Credential, replace, durable bool) error {
	data, err := encode(c)
	if err != nil {
		return errWriteFailed()
	}
	if err := ensureDirectory(filepath.Dir(path)); err != nil {
		return err
	}
	if err := checkDirectory(path, errWriteFailed()); err != nil {
		return err
	}
	if err := checkTarget(path, replace); err != nil {
		return err
	}
	tmp, err := writeTemp(path, data, durable)
	if err != nil {
		return err
	}
	if err := publish(tmp, path, replace); err != nil {
		return err
	}
	if durable {
		// Durability of the directory entry is best effort: some
		// filesystems reject fsync on directories, and the file itself is
		// already synced.
		_ = syncDir(filepath.Dir(path))
	}
	return nil
}

// ensureDirectory creates dir (and missing parents) with mode 0700 when it
// does not exist, then chmods it to exactly 0700 in case the umask removed
// owner bits. A directory that already exists is left untouched.
func ensureDirectory(dir string) error {
	if _, err := os.Lstat(dir); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return errWriteFailed()
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return errWriteFailed()
	}
	return nil
}

// checkTarget applies the overwrite rules to whatever already sits at path.
func checkTarget(path string, replace bool) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return errWriteFailed()
	case !replace:
		return errFileExists()
	case !isOwnedRegularFile(fi) || !privateMode(fi):
		return errUnsafeReplace()
	}
	return nil
}

// writeTemp writes data to a fresh 0600 sibling of path and, when durable,
// syncs it. The mode is set on the open descriptor, so no path is followed
// to set it.
func writeTemp(path string, data []byte, durable bool) (string, error) {
	suffix := make([]byte, 16)
	if _, err := rand.Read(suffix); err != nil {
		return "", errWriteFailed()
	}
	tmp := path + ".tmp-" + hex.EncodeToString(suffix)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", errWriteFailed()
	}
	_, werr := f.Write(data)
	cerr := f.Chmod(0o600)
	var serr error
	if durable {
		serr = f.Sync()
	}
	if err := errors.Join(werr, cerr, serr, f.Close()); err != nil {
		_ = os.Remove(tmp)
		return "", errWriteFailed()
	}
	return tmp, nil
}

// publish moves the synced temp file into place and always leaves no temp
// file behind. Without replace, a path that appeared since checkTarget is
// reported as session_file_exists, and a failure after the link removes the
// newly linked path again.
func publish(tmp, path string, replace bool) error {
	if replace {
		if err := os.Rename(tmp, path); err != nil {
			_ = os.Remove(tmp)
			return errWriteFailed()
		}
		return nil
	}
	if err := os.Link(tmp, path); err != nil {
		_ = os.Remove(tmp)
		if errors.Is(err, fs.ErrExist) {
			return errFileExists()
		}
		return errWriteFailed()
	}
	if err := os.Remove(tmp); err != nil {
		_ = os.Remove(path)
		return errWriteFailed()
	}
	return nil
}
