// Package store holds the coordination rules of the collab journal: the
// hash-chained event journal, idempotent mutations, sessions, tasks and
// leases, path claims, reports, handoffs, reviews and recovery. The data
// lives in a storage engine behind the port this package declares
// (port.go; packages sqlite and postgres implement it, see
// docs/architecture.md). Every mutation runs in one write
// transaction of the engine, which serialises the workspace's journal
// head; reads that must agree run in one read snapshot.
package store

import (
	"context"
	"time"

	"github.com/agenttool/collab/core/gitstate"
)

// Config is what the rules take besides their engine: the clock and the
// way Git state is observed.
type Config struct {
	// Now is the store clock; nil means time.Now. Tests inject fixed clocks.
	Now func() time.Time
	// Observe resolves a directory's repository identity and captures its
	// Git state; nil means the InspectAndCapture of a gitstate.Observer of
	// the store's own.
	Observe func(ctx context.Context, root, explicitKey string) (gitstate.Identity, gitstate.Checkpoint, error)
	// Capture observes a worktree's Git state; nil means gitstate.Capture.
	Capture func(ctx context.Context, id gitstate.Identity) gitstate.Checkpoint
}

// WithDefaults returns c with every nil field set to its default, so that
// an engine opened beside the store sees the same clock and observer.
func (c Config) WithDefaults() Config {
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Observe == nil {
		c.Observe = new(gitstate.Observer).InspectAndCapture
	}
	if c.Capture == nil {
		c.Capture = gitstate.Capture
	}
	return c
}

// Store is an open collab database: the coordination rules over one
// engine. It is safe for concurrent use.
type Store struct {
	be      Backend
	now     func() time.Time
	observe func(ctx context.Context, root, explicitKey string) (gitstate.Identity, gitstate.Checkpoint, error)
	capture func(ctx context.Context, id gitstate.Identity) gitstate.Checkpoint
	// indep caches each workspace's independence claims (independence_read.go).
	indep *independenceCache
}

// New returns the rules over an open engine (package core/backend opens
// one for a database value). The store owns be from now on: Close closes
// it.
func New(be Backend, cfg Config) *Store {
	cfg = cfg.WithDefaults()
	return &Store{be: be, now: cfg.Now, observe: cfg.Observe, capture: cfg.Capture, indep: &independenceCache{}}
}

// Path returns the absolute database path, or the in-memory marker, or for
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

// engine is the store's engine seen through the port.
func (s *Store) engine() Engine { return s.be }

// writeTx runs fn in one write transaction of the engine; any error rolls
// everything back, so a refusal never leaves a partial write.
func (s *Store) writeTx(ctx context.Context, fn func(tx Tx) error) error {
	return s.engine().Write(ctx, fn)
}

// readTx runs fn in one read snapshot of the engine.
func (s *Store) readTx(ctx context.Context, fn func(tx Tx) error) error {
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
