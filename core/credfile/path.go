package credfile

import (
	"fmt"
	"path/filepath"
	"strings"
)

// MemoryDatabase is the database path that names an in-memory SQLite store,
// which has no directory to hold credential files.
const MemoryDatabase = ":memory:"

// DirName is the directory, beside the database file, that holds the
// default credential files.
const DirName = "collab-sessions"

// PathFor returns the default credential path of a session:
// <directory of the absolute database path>/collab-sessions/<sessionID>.json.
// An in-memory database is refused with session_file_path_required, and a
// session id that could escape that directory with invalid_session_id.
func PathFor(databasePath, sessionID string) (string, error) {
	if databasePath == MemoryDatabase {
		return "", errPathRequired()
	}
	if !safeFileStem(sessionID) {
		return "", errInvalidSessionID()
	}
	abs, err := filepath.Abs(databasePath)
	if err != nil {
		return "", fmt.Errorf("resolve database path: %w", err)
	}
	return filepath.Join(filepath.Dir(abs), DirName, sessionID+".json"), nil
}

// safeFileStem reports whether id can be used as a file name stem without
// naming another directory. Generated ids (session_<uuid>) always pass.
func safeFileStem(id string) bool {
	return id != "" && id != "." && id != ".." &&
		!strings.ContainsAny(id, `/\`+"\x00") && filepath.Base(id) == id
}
