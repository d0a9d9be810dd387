package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/place"
)

// prepareFile makes sure path can be opened safely: the parent directory
// exists (created 0700 if it did not, leaving an existing directory's mode
// alone), and the file exists as a private regular file (created 0600 with
// O_EXCL if absent).
func prepareFile(path string) error {
	dir := filepath.Dir(path)
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("create database directory: %w", err)
		}
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("restrict database directory: %w", err)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	switch {
	case err == nil:
		return f.Close()
	case errors.Is(err, fs.ErrExist):
		return checkDatabaseFile(path)
	default:
		return fmt.Errorf("create database file: %w", err)
	}
}

// checkDatabaseFile refuses a database path that is a symlink, a hard link,
// not a regular file, or owned by someone else.
func checkDatabaseFile(path string) error {
	info, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return collaberr.New(collaberr.DatabaseFileUnsafe,
				"The collaboration database file does not exist; check AGENTOOL_COLLAB_DB").With("path", path)
		}
		return fmt.Errorf("inspect database file: %w", err)
	}
	if !info.Mode().IsRegular() || !ownedByMe(info) || linkCount(info) != 1 {
		return collaberr.New(collaberr.DatabaseFileUnsafe,
			"The collaboration database must be a regular file owned by you, not a symlink or hard link").With("path", path)
	}
	return nil
}

// tightenModes re-checks the database and its -wal/-shm sidecars and sets
// each to 0600, so a file SQLite created under a loose umask does not stay
// readable by others.
func tightenModes(path string) error {
	for _, p := range []string{path, path + place.WALSuffix, path + place.SHMSuffix} {
		info, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || !info.Mode().IsRegular() || !ownedByMe(info) {
			return collaberr.New(collaberr.DatabaseSidecarUnsafe,
				"A database or sidecar file is not a regular file owned by you; remove or fix it before continuing").
				With("operation", "tighten_database_file_mode")
		}
		if info.Mode().Perm() != 0o600 {
			if err := os.Chmod(p, 0o600); err != nil {
				return fmt.Errorf("restrict %s: %w", filepath.Base(p), err)
			}
		}
	}
	return nil
}
