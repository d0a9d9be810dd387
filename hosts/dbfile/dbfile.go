// Package dbfile is the database a read-only command opens and, before it
// opens it, why it cannot, in words naming the setting that chose it.
package dbfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/place"
)

// Source names the setting that chose a database path, for messages.
func Source(s place.Source) string {
	switch s {
	case place.FromEnv:
		return place.EnvDB
	case place.FromXDG:
		return place.EnvXDGData
	}
	return "the default location"
}

// ReadTarget is the database a read-only command opens (--db, else the
// one the server would open) and the setting that named it, checked by
// CheckDatabaseFile so that a missing or wrong file is refused in words
// that name the path and the setting the person actually used.
func ReadTarget(db string) (path, source string, err error) {
	if db != "" {
		path, source = db, "--db"
	} else {
		choice, err := place.Database(place.OS())
		if err != nil {
			return "", "", fmt.Errorf("cannot tell which database to open: %w; pass --db FILE", err)
		}
		path, source = choice.Path, Source(choice.Source)
	}
	return path, source, CheckDatabaseFile(path, source)
}

// CheckDatabaseFile explains, before a read-only command opens path, why
// it cannot: naming the setting that chose it (source) and the real cause.
func CheckDatabaseFile(path, source string) error {
	if path == backend.MemoryPath {
		return fmt.Errorf("%s names the in-memory database %s, which only a running server holds", source, path)
	}
	if place.IsPostgres(path) {
		return nil // a server: backend.Open says what is wrong, without the password
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("no database at %s (from %s); pass --db with an existing journal, or start the server once to create it", path, source)
	case err != nil:
		return fmt.Errorf("database %s (from %s): %w", path, source, err)
	case st.IsDir():
		return fmt.Errorf("%s (from %s) is a directory, not a database file", path, source)
	}
	return nil
}

// CollabError turns a structured collab error into "message (code)".
func CollabError(err error) error {
	if ce, ok := collaberr.As(err); ok {
		return fmt.Errorf("%s (%s)", ce.Message, ce.Code)
	}
	return err
}
