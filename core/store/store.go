// Package store holds the coordination rules of the collab journal: the
// hash-chained event journal, idempotent mutations, sessions, tasks and
// leases, path claims, reports, handoffs, reviews and recovery. The data
// lives in a storage engine (package sqlite today; the seam is package
// engine, see docs/architecture.md). Every mutation runs in one write
// transaction of the engine, which serialises the workspace's journal
// head; reads that must agree run in one read snapshot.
package store

import (
	"context"
	"time"

	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/sqlite"
)

// MemoryPath opens a private in-memory database (no credential files).
const MemoryPath = sqlite.MemoryPath

// Options configure Open.
type Options struct {
	// Path is the database file; MemoryPath for an in-memory database. A
	// relative path is made absolute against the working directory.
	Path string
	// Now is the store clock; nil means time.Now. Tests inject fixed clocks.
	Now func() time.Time
	// Observe resolves a directory's repository identity and captures its
	// Git state; nil means the InspectAndCapture of a gitstate.Observer of
	// the store's own.
	Observe func(ctx context.Context, root, explicitKey string) (gitstate.Identity, gitstate.Checkpoint, error)
	// Capture observes a worktree's Git state; nil means gitstate.Capture.
	Capture func(ctx context.Context, id gitstate.Identity) gitstate.Checkpoint
	// ReadOnly opens the file without creating, migrating or writing it.
	ReadOnly bool
	// Inspect is ReadOnly for one look at the file as it is now (verify,
	// doctor): a cleanly closed file is read as immutable, so that nothing
	// (no -wal, no -shm) is created beside it and read-only media work. Such
	// a store never sees writes made after it opened.
	Inspect bool
	// Synchronous is SQLite's synchronous level for commits: "normal"
	// (the default) or "full"; see sqlite.Options.
	Synchronous string
	// LockWait bounds how long a SQLite connection waits on another
	// process's lock (see sqlite.Options); zero means five seconds. On
	// PostgreSQL the context's deadline bounds every wait instead.
	LockWait time.Duration
}

// Store is an open collab database: the coordination rules over the
// SQLite engine or the PostgreSQL one. It is safe for concurrent use.
type Store struct {
	be      backend
	eng     engine.Engine
	now     func() time.Time
	observe func(ctx context.Context, root, explicitKey string) (gitstate.Identity, gitstate.Checkpoint, error)
	capture func(ctx context.Context, id gitstate.Identity) gitstate.Checkpoint
}

// Open opens (creating if needed) the collab database described by opts,
// validates its shape and journals, and migrates older layouts to the
// current schema in one transaction. A file it cannot accept is left
// unchanged.
func Open(ctx context.Context, opts Options) (*Store, error) {
	s := &Store{now: opts.Now, observe: opts.Observe, capture: opts.Capture}
	if s.now == nil {
		s.now = time.Now
	}
	if s.observe == nil {
		s.observe = new(gitstate.Observer).InspectAndCapture
	}
	if s.capture == nil {
		s.capture = gitstate.Capture
	}
	if place.IsPostgres(opts.Path) {
		return s.openPostgres(ctx, opts)
	}
	db, err := sqlite.Open(ctx, sqlite.Options{Path: opts.Path, Now: s.now, Observe: s.observe, ReadOnly: opts.ReadOnly,
		Inspect: opts.Inspect, Synchronous: opts.Synchronous, LockWait: opts.LockWait})
	if err != nil {
		return nil, err
	}
	s.be, s.eng = sqliteBackend{db}, sqlite.Engine{DB: db}
	return s, nil
}

// Path returns the absolute database path, or MemoryPath, or for
// PostgreSQL the URL without its password (place.RedactPostgres): the
// form to show, log and key local files on.
func (s *Store) Path() string { return s.be.Path() }

// Close releases the database handles.
func (s *Store) Close() error { return s.be.Close() }

// QuickCheck runs SQLite's quick_check and returns the problems it
// reports (at most ten), none for a sound file. On PostgreSQL, whose
// pages are the server's business, it checks instead that the schema is
// at the current version and that every collab table can be read.
func (s *Store) QuickCheck(ctx context.Context) ([]string, error) { return s.be.QuickCheck(ctx) }

// NeedsMigration reports whether the file's schema predates the current
// one, so that a read-only opener (which never migrates) can say so
// instead of failing on a missing column. A writable Open has already
// migrated. A PostgreSQL journal is never older than its binary (Open
// refuses what it cannot read), so it reports false.
func (s *Store) NeedsMigration(ctx context.Context) (bool, error) { return s.be.NeedsMigration(ctx) }

// engine is the store's engine seen through the seam.
func (s *Store) engine() engine.Engine { return s.eng }

// writeTx runs fn in one write transaction of the engine; any error rolls
// everything back, so a refusal never leaves a partial write.
func (s *Store) writeTx(ctx context.Context, fn func(tx engine.Tx) error) error {
	return s.engine().Write(ctx, fn)
}

// readTx runs fn in one read snapshot of the engine.
func (s *Store) readTx(ctx context.Context, fn func(tx engine.Tx) error) error {
	return s.engine().Read(ctx, fn)
}

// nowISO renders the store clock the way every stored timestamp is written:
// UTC, millisecond precision, trailing Z, so that timestamps order as strings.
func (s *Store) nowISO() string { return FormatTime(s.now()) }

// FormatTime renders t as the journal's 24-character ISO-8601 UTC form.
func FormatTime(t time.Time) string {
	return t.UTC().Truncate(time.Millisecond).Format("2006-01-02T15:04:05.000Z")
}

// ParseTime reads a journal timestamp.
func ParseTime(s string) (time.Time, error) {
	return time.Parse("2006-01-02T15:04:05.000Z", s)
}

// addSeconds returns iso + seconds, in the same form.
func addSeconds(iso string, seconds int64) string {
	t, err := ParseTime(iso)
	if err != nil {
		return iso
	}
	return FormatTime(t.Add(time.Duration(seconds) * time.Second))
}

// ApplicationID marks a collab database ("ATCL"); SchemaVersion is the
// user_version this implementation reads and writes.
const (
	ApplicationID = sqlite.ApplicationID
	SchemaVersion = sqlite.SchemaVersion
)
