package credfile

import (
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/place"
)

// DirName is the directory, beside the database file, that holds the
// default credential files (place.CredentialDirName).
const DirName = place.CredentialDirName

// PathFor returns the default credential path of a session,
// place.Beside.CredentialFile:
// <directory of the absolute database path>/collab-sessions/<sessionID>.json.
// An in-memory database is refused with session_file_path_required, and a
// session id that could escape that directory with invalid_session_id.
func PathFor(databasePath, sessionID string) (string, error) {
	if databasePath == place.Memory {
		return "", errPathRequired()
	}
	if !safeFileStem(sessionID) {
		return "", errInvalidSessionID()
	}
	b, err := place.BesideDatabase(databasePath)
	if err != nil {
		return "", err
	}
	return b.CredentialFile(sessionID), nil
}

// safeFileStem reports whether id can be used as a file name stem without
// naming another directory. Generated ids (session_<uuid>) always pass.
func safeFileStem(id string) bool {
	return id != "" && id != "." && id != ".." &&
		!strings.ContainsAny(id, `/\`+"\x00") && filepath.Base(id) == id
}
