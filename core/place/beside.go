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
	// HostLinkDirName holds, per session a stdio server bound, the host
	// process and conversation it serves (core/hostlink), so that the
	// host's hooks find it. It is kept apart from CredentialDirName, whose
	// contents the reference defines.
	HostLinkDirName = "collab-hostlinks"
	// SearchSuffix is appended to the database path to name its search
	// index.
	SearchSuffix = ".search"
	// WALSuffix, SHMSuffix and RollbackSuffix are appended by SQLite to
	// name its write-ahead log, shared-memory index and rollback journal.
	WALSuffix      = "-wal"
	SHMSuffix      = "-shm"
	RollbackSuffix = "-journal"
)

// Beside names the files kept beside one database file, or, for a
// PostgreSQL journal, in its local folder (PostgresFolder). Its methods
// are pure; the zero value is not useful (use BesideDatabase).
type Beside struct {
	db  string // absolute file path, or the redacted PostgreSQL URL
	dir string // the folder the files live in
	pg  bool
}

// BesideDatabase returns the files beside the database at path. A relative
// path is made absolute against the process's working directory, exactly as
// the store does when it opens the database, so every part of collab names
// the same files; Memory is refused with ErrMemory. A PostgreSQL URL
// (IsPostgres) has no folder of its own: its files live in the local
// folder PostgresFolder names from this process's environment.
func BesideDatabase(path string) (Beside, error) { return BesideDatabaseIn(OS(), path) }

// BesideDatabaseIn is BesideDatabase with the environment given: env's
// working directory is not used for a file path (filepath.Abs resolves
// against the process's own, as the store does), but env's data home
// places a PostgreSQL journal's local folder.
func BesideDatabaseIn(env Env, path string) (Beside, error) {
	if path == Memory {
		return Beside{}, ErrMemory
	}
	if IsPostgres(path) {
		dir, err := PostgresFolder(env, path)
		if err != nil {
			return Beside{}, fmt.Errorf("place the local folder of a PostgreSQL journal: %w", err)
		}
		return Beside{db: RedactPostgres(path), dir: dir, pg: true}, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Beside{}, fmt.Errorf("resolve database path: %w", err)
	}
	return Beside{db: abs, dir: filepath.Dir(abs)}, nil
}

// Postgres reports whether the database is a PostgreSQL journal, whose
// Database is a URL and whose WAL, SHM and RollbackJournal are "".
func (b Beside) Postgres() bool { return b.pg }

// Database is the absolute, cleaned database path, or the PostgreSQL URL
// without its password (RedactPostgres).
func (b Beside) Database() string { return b.db }

// Dir is the folder holding the database, or a PostgreSQL journal's local
// folder (PostgresFolder).
func (b Beside) Dir() string { return b.dir }

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

// HostLinkDir is <database folder>/collab-hostlinks.
func (b Beside) HostLinkDir() string { return filepath.Join(b.Dir(), HostLinkDirName) }

// ResumeDir is <database folder>/collab-remote.
func (b Beside) ResumeDir() string { return filepath.Join(b.Dir(), ResumeDirName) }

// SearchIndex is the search sidecar, <database>.search; for PostgreSQL,
// <local folder>/collab.search.
func (b Beside) SearchIndex() string {
	if b.pg {
		return filepath.Join(b.dir, "collab"+SearchSuffix)
	}
	return b.db + SearchSuffix
}

// WAL is SQLite's write-ahead log, <database>-wal.
func (b Beside) WAL() string {
	if b.pg {
		return ""
	}
	return b.db + WALSuffix
}

// SHM is SQLite's shared-memory index, <database>-shm.
func (b Beside) SHM() string {
	if b.pg {
		return ""
	}
	return b.db + SHMSuffix
}

// RollbackJournal is SQLite's rollback journal, <database>-journal.
func (b Beside) RollbackJournal() string {
	if b.pg {
		return ""
	}
	return b.db + RollbackSuffix
}
