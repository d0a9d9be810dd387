// Package sqlite is the SQLite engine of the collab journal: the one file
// shared with @agenttool/collab, its schema and migrations, the open-time
// validation that refuses foreign, newer or damaged files, the write
// transactions (BEGIN IMMEDIATE with a bounded busy retry), the statement
// cache and the exact SQL the coordination rules in package store run.
//
// Concurrency: every write transaction holds SQLite's database-wide write
// lock from its first statement, so a workspace's journal head is
// serialised across every process sharing the file, sequences stay
// contiguous, receipts are unique per (workspace, actor, key) by the
// mutations primary key, and a contested claim has exactly one winner.
package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store/sqltx"

	_ "modernc.org/sqlite" // registers the CGO-free "sqlite" driver
)

// MemoryPath opens a private in-memory database (no credential files).
const MemoryPath = place.Memory

// busyTimeout is how long SQLite waits on a lock before reporting busy.
const busyTimeout = 5 * time.Second

// Options configure Open.
type Options struct {
	// Path is the database file; MemoryPath for an in-memory database. A
	// relative path is made absolute against the working directory.
	Path string
	// Now is the clock migrations stamp rows with; nil means time.Now.
	Now func() time.Time
	// Observe resolves a legacy workspace root's repository identity when
	// a v0.1 file is migrated; nil means gitstate.InspectAndCapture.
	Observe func(ctx context.Context, root, explicitKey string) (gitstate.Identity, gitstate.Checkpoint, error)
	// ReadOnly opens the file without creating, migrating or writing it.
	ReadOnly bool
	// Inspect is ReadOnly for one look at the file as it is now (verify,
	// doctor): a cleanly closed file is read as immutable, so that nothing
	// (no -wal, no -shm) is created beside it and read-only media work.
	Inspect bool
	// LockWait bounds how long each connection waits on another process's
	// lock before reporting the file busy; zero means five seconds. A
	// caller with a short budget of its own (the Git guard) sets it so that
	// a locked file answers within that budget.
	LockWait time.Duration
	// Synchronous is SQLite's synchronous level for commits: "normal"
	// (the default) or "full". In WAL mode "normal" never loses or tears a
	// committed transaction when a process crashes or is killed; only an
	// operating-system crash or power loss can drop the last commits,
	// which "full" prevents at the cost of an fsync per commit.
	Synchronous string
}

// DB is an open collab SQLite file. It is safe for concurrent use.
type DB struct {
	path    string
	write   *sql.DB
	read    *sql.DB
	now     func() time.Time
	observe func(ctx context.Context, root, explicitKey string) (gitstate.Identity, gitstate.Checkpoint, error)
	memory  bool
	sync    string
	// lockWait is every pooled connection's busy timeout.
	lockWait time.Duration
	// writers batches concurrent Write calls (groupcommit.go).
	writers sqltx.Group[writeFn]
	// writeStmts and readStmts cache prepared statements per pool.
	writeStmts, readStmts *stmtCache
	// readOnly stores refuse every mutation.
	readOnly bool
	// immutable read-only stores read a cleanly closed file without
	// locking it or creating a -wal or -shm beside it.
	immutable bool
	inspect   bool
	// opened is the file this store opened; a write is refused once the
	// path names another file (or none).
	opened os.FileInfo
	// directURI names the file for direct read connections (directURI);
	// "" for an in-memory database, which has no file to open again.
	directURI string
	// taskCounts says that the open found (or made) the task counts kept
	// by their triggers (task_counts.go); set before Open returns.
	taskCounts bool
}

// Path returns the absolute database path, or MemoryPath.
func (s *DB) Path() string { return s.path }

// Memory reports whether the database is a private in-memory one.
func (s *DB) Memory() bool { return s.memory }

// ReadPool is the pool of read connections. It exists for the rules that
// are not yet behind the engine interface (see docs/architecture.md); new
// code goes through Read and the engine's methods instead.
func (s *DB) ReadPool() *sql.DB { return s.read }

// Close releases the database handles.
func (s *DB) Close() error {
	var firstErr error
	s.writeStmts.close()
	s.readStmts.close()
	if s.read != nil && s.read != s.write {
		firstErr = s.read.Close()
	}
	if s.write != nil {
		if err := s.write.Close(); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}

// nowISO renders the clock the way every stored timestamp is written.
func (s *DB) nowISO() string {
	return s.now().UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}

// access is how a pool opens the file.
type access int

const (
	readWrite access = iota
	readOnlyAccess
	// immutableAccess reads the file as if on read-only media: no locks
	// and no -wal or -shm. Only for cleanly closed files (no -wal).
	immutableAccess
)

// dsn builds the driver URI for path with per-connection pragmas.
func dsn(path, txlock, synchronous string, mode access, lockWait time.Duration) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", lockWait.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "synchronous("+synchronous+")")
	q.Set("_txlock", txlock)
	if mode != readWrite {
		q.Set("mode", "ro")
	}
	if mode == immutableAccess {
		q.Set("immutable", "1")
	}

	if path == MemoryPath {
		return "file::memory:?" + q.Encode()
	}
	return "file:" + uriPath(path) + "?" + q.Encode()
}

// uriPath escapes the characters of path a SQLite URI reads as syntax.
func uriPath(path string) string {
	return strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path)
}

func openPool(path, txlock, synchronous string, mode access, lockWait time.Duration, maxConns int) (*sql.DB, error) {
	db, err := sql.Open("sqlite", dsn(path, txlock, synchronous, mode, lockWait))
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxLifetime(0)
	return db, nil
}
