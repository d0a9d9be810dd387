package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/place"
)

// sidecarSuffixes are the files SQLite reads beside a database before it
// trusts the main file: a write-ahead log whose frames it replays, its
// shared-memory index, and a rollback journal it plays back.
var sidecarSuffixes = []string{place.WALSuffix, place.SHMSuffix, place.RollbackSuffix}

// checkSidecars refuses to let SQLite open path while a sidecar beside it
// is not a private regular file of this user. SQLite replays whatever a
// -wal or -journal holds, so one planted by another user in a shared
// directory would otherwise become part of the journal. It runs before
// the first SQLite connection to the file exists.
func checkSidecars(path string) error {
	for _, suffix := range sidecarSuffixes {
		info, err := os.Lstat(path + suffix)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("inspect database sidecar %s: %w", suffix, err)
		}
		if !info.Mode().IsRegular() || !ownedByMe(info) || linkCount(info) != 1 {
			return collaberr.New(collaberr.DatabaseSidecarUnsafe,
				"A file beside the database that SQLite would replay is not a private regular file of yours; "+
					"it may have been planted by someone else. Inspect and remove it before continuing").
				With("operation", "open_database").With("sidecar", suffix)
		}
	}
	return nil
}

// cleanlyClosed reports whether no -wal or -journal sits beside path, so
// that the main file alone holds every committed transaction.
func cleanlyClosed(path string) bool {
	return !exists(path+place.WALSuffix) && !exists(path+place.RollbackSuffix)
}

// exists reports whether anything (even a dangling link) is at path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// errFileReplaced is the refusal for a database whose path no longer names
// the file this store opened.
func errFileReplaced() *collaberr.Error {
	return collaberr.New(collaberr.DatabaseFileReplaced,
		"The database file was deleted or replaced while this server was running; writes are refused so "+
			"that nothing is acknowledged into a file no one will read again. Restart the server")
}

// CheckSameFile refuses when the file at the store's path is no longer the
// one it opened (deleted, renamed away or replaced). It costs one stat.
func (s *DB) CheckSameFile() error {
	if s.opened == nil {
		return nil
	}
	info, err := os.Stat(s.path)
	if err != nil || !os.SameFile(info, s.opened) {
		return errFileReplaced()
	}
	return nil
}
