package search

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/agenttool/collab/core/place"
)

// sidecarApplicationID marks a collab search sidecar ("ATCS").
const sidecarApplicationID = 0x41544353

// sidecarFormat is the sidecar's user_version; a sidecar of another format
// is emptied and rebuilt. Format 2 stems words (the porter tokenizer) and
// leaves fixed vocabulary out of the body.
const sidecarFormat = 2

// SidecarPath names the index file of the database at dbPath: the same
// directory, the database's name plus place.SearchSuffix; for a
// PostgreSQL journal, place.Beside.SearchIndex in its local folder.
func SidecarPath(dbPath string) string {
	if place.IsPostgres(dbPath) {
		if b, err := place.BesideDatabase(dbPath); err == nil {
			return b.SearchIndex()
		}
	}
	return dbPath + place.SearchSuffix
}

var sidecarSchema = []string{
	`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE IF NOT EXISTS workspaces (
  ws INTEGER PRIMARY KEY AUTOINCREMENT,
  workspace_id TEXT NOT NULL UNIQUE,
  epoch_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  hash TEXT NOT NULL
)`,
	`CREATE TABLE IF NOT EXISTS docs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ws INTEGER NOT NULL,
  sequence INTEGER NOT NULL,
  kind TEXT NOT NULL,
  event_type TEXT NOT NULL,
  ref_id TEXT NOT NULL,
  task_id TEXT,
  actor TEXT NOT NULL,
  session_id TEXT,
  occurred_at TEXT NOT NULL
)`,
	`CREATE INDEX IF NOT EXISTS docs_ws_sequence ON docs(ws, sequence)`,
	`CREATE VIRTUAL TABLE IF NOT EXISTS text USING fts5(title, body, tokenize = 'porter unicode61 remove_diacritics 2')`,
}

var sidecarTables = []string{"text", "docs", "workspaces", "meta", "sqlite_sequence"}

// sidecarDSN opens the sidecar with a rollback journal (one file beside
// the database besides a transient -journal; no shared-memory file for two
// databases to mix up), without fsync (the index is a cache: a torn
// sidecar is detected and rebuilt), and immediate write transactions so
// that two catching-up processes queue instead of deadlocking.
func sidecarDSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(30000)")
	q.Add("_pragma", "journal_mode(delete)")
	q.Add("_pragma", "synchronous(off)")
	// A 16 MiB page cache keeps a full build from spilling pages to disk
	// mid-transaction; it is only filled as far as the index is used.
	q.Add("_pragma", "cache_size(-16384)")
	q.Set("_txlock", "immediate")
	if path == memoryPath {
		return "file::memory:?" + q.Encode()
	}
	escaped := strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
	return "file:" + escaped + "?" + q.Encode()
}

const memoryPath = ":memory:"

// openSidecar opens (creating if needed) the sidecar at path with a pool
// of readers connections and makes its schema current. A file that is not
// a readable sidecar is replaced; one that is not a private regular file
// of this user is refused and left as it is.
func openSidecar(ctx context.Context, path string, readers int) (*sql.DB, os.FileInfo, error) {
	db, info, err := tryOpenSidecar(ctx, path, readers)
	if err == nil || !isDamaged(err) || path == memoryPath {
		return db, info, err
	}
	if err := removeSidecar(path); err != nil {
		return nil, nil, err
	}
	return tryOpenSidecar(ctx, path, readers)
}

func tryOpenSidecar(ctx context.Context, path string, readers int) (*sql.DB, os.FileInfo, error) {
	var info os.FileInfo
	if path != memoryPath {
		var err error
		if info, err = ensurePrivateFile(path); err != nil {
			return nil, nil, err
		}
	}
	db, err := sql.Open("sqlite", sidecarDSN(path))
	if err != nil {
		return nil, nil, fmt.Errorf("open search index: %w", err)
	}
	// The connections are opened now and kept for the life of the
	// process: they stay on the file that was checked, and a replaced
	// file is noticed by comparing identities.
	db.SetMaxOpenConns(readers)
	db.SetMaxIdleConns(readers)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := prepareSchema(ctx, db); err != nil {
		db.Close()
		return nil, nil, err
	}
	if err := openAll(ctx, db, readers); err != nil {
		db.Close()
		return nil, nil, err
	}
	if path != memoryPath {
		if err := stillThere(path, info); err != nil {
			db.Close()
			return nil, nil, err
		}
	}
	return db, info, nil
}

// openAll opens every connection of the pool at once, so that none of
// them is opened later by name, perhaps on another file.
func openAll(ctx context.Context, db *sql.DB, n int) error {
	conns := make([]*sql.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		c, err := db.Conn(ctx)
		if err == nil {
			err = c.PingContext(ctx)
		}
		if err != nil {
			return fmt.Errorf("open search index: %w", err)
		}
		conns = append(conns, c)
	}
	return nil
}

// prepareSchema checks the sidecar's identity and format and creates the
// tables. A file of another format is emptied; a foreign file is reported
// as damaged so that it is replaced.
func prepareSchema(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("open search index: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // committed below on success
	var appID, version int64
	if err := tx.QueryRowContext(ctx, "PRAGMA application_id").Scan(&appID); err != nil {
		return fmt.Errorf("read search index identity: %w", err)
	}
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read search index format: %w", err)
	}
	var tables, ours int
	if err := tx.QueryRowContext(ctx, "SELECT count(*), count(CASE WHEN name IN ('meta', 'workspaces', 'docs', 'text') THEN 1 END) FROM sqlite_schema WHERE type = 'table'").Scan(&tables, &ours); err != nil {
		return fmt.Errorf("read search index schema: %w", err)
	}
	switch {
	case tables > 0 && appID != sidecarApplicationID:
		return errForeignSidecar
	case tables > 0 && (version != sidecarFormat || ours != 4):
		// Another format, or tables lost: start the index again.
		if err := dropAll(ctx, tx); err != nil {
			return err
		}
	case tables > 0:
		return tx.Commit()
	}
	if err := createSchema(ctx, tx); err != nil {
		return err
	}
	return tx.Commit()
}

// errForeignSidecar reports a file at the sidecar path that some other
// program wrote.
var errForeignSidecar = errors.New("the search index file belongs to another program")

func createSchema(ctx context.Context, tx *sql.Tx) error {
	stmts := append([]string{
		fmt.Sprintf("PRAGMA application_id = %d", sidecarApplicationID),
		fmt.Sprintf("PRAGMA user_version = %d", sidecarFormat),
	}, sidecarSchema...)
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("create search index: %w", err)
		}
	}
	_, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?)", newGeneration())
	if err != nil {
		return fmt.Errorf("create search index: %w", err)
	}
	return nil
}

func dropAll(ctx context.Context, tx *sql.Tx) error {
	for _, t := range sidecarTables {
		if _, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+t); err != nil && !strings.Contains(err.Error(), "may not be dropped") {
			return fmt.Errorf("empty search index: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM sqlite_sequence"); err != nil && !strings.Contains(err.Error(), "no such table") {
		return fmt.Errorf("empty search index: %w", err)
	}
	return nil
}

// newGeneration names one build of the index; cursors from another build
// are refused.
func newGeneration() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// isDamaged reports whether err means the sidecar file is not a usable
// search index: garbage, damaged pages, another program's file, or a file
// whose tables are gone (truncated or emptied in place, which an open
// connection sees as an empty database rather than a replaced file).
func isDamaged(err error) bool {
	if errors.Is(err, errForeignSidecar) || isMissingTable(err) {
		return true
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
	}
	return false
}

// isMissingTable reports whether err is SQLite not finding one of the
// sidecar's tables. SQLite has no distinct code for it: it is
// SQLITE_ERROR with this message.
func isMissingTable(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_ERROR && strings.Contains(se.Error(), "no such table")
}

// removeSidecar deletes a damaged sidecar and its transient journal so the
// next open starts from an empty file.
func removeSidecar(path string) error {
	for _, p := range []string{path + place.RollbackSuffix, path} {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove damaged search index: %w", err)
		}
	}
	return nil
}
