package place

import (
	"errors"
	"fmt"
	"path/filepath"
)

// ErrMemory is returned for files beside an in-memory database: it has no
// folder to hold them.
var ErrMemory = errors.New("an in-memory database has no folder for files beside it")

// Names of the files and folders kept beside the database.
const (
	// CredentialDirName holds one session credential file per
	// credential-bound session: <session_id>.json.
	CredentialDirName = "collab-sessions"
	// TokensFileName holds the hashed access tokens of network clients.
	TokensFileName = "collab-tokens.json"
	// ResumeDirName holds, per network client instance, the session it
	// last bound.
	ResumeDirName = "collab-remote"
	// SearchSuffix is appended to the database path to name its search
	// index.
	SearchSuffix = ".search"
	// WALSuffix, SHMSuffix and RollbackSuffix are appended by SQLite to
	// name its write-ahead log, shared-memory index and rollback journal.
	WALSuffix      = "-wal"
	SHMSuffix      = "-shm"
	RollbackSuffix = "-journal"
)

// Beside names the files kept beside one database file. Its methods are
// pure; the zero value is not useful (use BesideDatabase).
type Beside struct{ db string }

// BesideDatabase returns the files beside the database at path. A relative
// path is made absolute against the process's working directory, exactly as
// the store does when it opens the database, so every part of collab names
// the same files; Memory is refused with ErrMemory.
func BesideDatabase(path string) (Beside, error) {
	if path == Memory {
		return Beside{}, ErrMemory
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Beside{}, fmt.Errorf("resolve database path: %w", err)
	}
	return Beside{db: abs}, nil
}

// Database is the absolute, cleaned database path.
func (b Beside) Database() string { return b.db }

// Dir is the folder holding the database.
func (b Beside) Dir() string { return filepath.Dir(b.db) }

// CredentialDir is <database folder>/collab-sessions, private to the user
// (0700), holding the default credential file of each session.
func (b Beside) CredentialDir() string { return filepath.Join(b.Dir(), CredentialDirName) }

// CredentialFile is the default credential file of a session,
// <database folder>/collab-sessions/<sessionID>.json. The caller checks
// that sessionID is a safe file name stem.
func (b Beside) CredentialFile(sessionID string) string {
	return filepath.Join(b.CredentialDir(), sessionID+".json")
}

// TokensFile is <database folder>/collab-tokens.json.
func (b Beside) TokensFile() string { return filepath.Join(b.Dir(), TokensFileName) }

// ResumeDir is <database folder>/collab-remote.
func (b Beside) ResumeDir() string { return filepath.Join(b.Dir(), ResumeDirName) }

// SearchIndex is the search sidecar, <database>.search.
func (b Beside) SearchIndex() string { return b.db + SearchSuffix }

// WAL is SQLite's write-ahead log, <database>-wal.
func (b Beside) WAL() string { return b.db + WALSuffix }

// SHM is SQLite's shared-memory index, <database>-shm.
func (b Beside) SHM() string { return b.db + SHMSuffix }

// RollbackJournal is SQLite's rollback journal, <database>-journal.
func (b Beside) RollbackJournal() string { return b.db + RollbackSuffix }
