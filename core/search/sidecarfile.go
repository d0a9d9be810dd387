package search

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/fileowner"
	"github.com/agenttool/collab/core/place"
)

// The sidecar is held to the rule of the main database and the credential
// files: a regular file, owned by this user, with one name, opened
// without following a symlink. Anything else at its path (a symlink to a
// file of the user's, a hard link to one, a directory, another user's
// file) is refused and left exactly as it is, so the index is never
// written into, or chmodded through, a file it does not own. The same
// holds for the rollback journal beside it, which SQLite would otherwise
// create through a planted link and play back.

// ensurePrivateFile creates path 0600 if it is missing, refuses anything
// but a private regular file of this user, and restricts its mode to 0600
// through the open descriptor (never by name). It returns the file's
// identity, against which later opens are compared.
func ensurePrivateFile(path string) (os.FileInfo, error) {
	if err := checkBeside(path + place.RollbackSuffix); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|openNoFollow, 0o600)
	if err != nil {
		if isRefusedOpen(err) {
			return nil, errSidecarUnsafe("")
		}
		return nil, fmt.Errorf("create search index: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("stat search index: %w", err)
	}
	if !privateRegular(info) {
		return nil, errSidecarUnsafe("")
	}
	if info.Mode().Perm() != 0o600 {
		if err := f.Chmod(0o600); err != nil {
			return nil, fmt.Errorf("restrict search index: %w", err)
		}
	}
	return info, nil
}

// stillThere refuses when the file at path is no longer the one that was
// checked (swapped between the check and SQLite's open by name).
func stillThere(path string, checked os.FileInfo) error {
	now, err := os.Lstat(path)
	if err != nil || !os.SameFile(now, checked) || !privateRegular(now) {
		return errSidecarUnsafe("")
	}
	return checkBeside(path + place.RollbackSuffix)
}

// checkBeside refuses a file beside the sidecar that SQLite would write
// or replay unless it is absent or a private regular file of this user.
func checkBeside(path string) error {
	info, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("inspect search index journal: %w", err)
	}
	if !privateRegular(info) {
		return errSidecarUnsafe(place.RollbackSuffix)
	}
	return nil
}

// privateRegular reports whether info is a regular file of this user with
// exactly one name.
func privateRegular(info os.FileInfo) bool {
	return info.Mode().IsRegular() && fileowner.Mine(info) && fileowner.LinkCount(info) == 1
}

// isRefusedOpen reports whether an open failed because of what is at the
// path (a symlink, a directory, a device) rather than a missing
// permission or directory.
func isRefusedOpen(err error) bool {
	return errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.ENXIO) ||
		errors.Is(err, syscall.EMLINK)
}

// errSidecarUnsafe is the refusal for an unsafe search index path. It
// names the file by its suffix only: the database's path stays out of
// tool results.
func errSidecarUnsafe(journal string) *collaberr.Error {
	which := place.SearchSuffix + journal
	return collaberr.New(collaberr.DatabaseSidecarUnsafe,
		"The search index beside the database ("+which+") is not a private regular file of yours: a symlink, "+
			"a hard link, a directory or another user's file. It was left untouched; remove it and search again to rebuild it").
		With("operation", "open_search_index").With("sidecar", which)
}
