package store

import (
	"context"

	"github.com/agenttool/collab/core/store/sqlite"
)

// backend is what differs between the engines beyond the seam: where the
// journal is, closing it, the checks only an engine can make, and its
// change signals. The SQLite backend answers from the file; the
// PostgreSQL one from the server (postgres_backend.go).
type backend interface {
	// Path is the absolute database path, MemoryPath, or a PostgreSQL
	// URL without its password.
	Path() string
	Close() error
	QuickCheck(ctx context.Context) ([]string, error)
	NeedsMigration(ctx context.Context) (bool, error)
	UserVersion(ctx context.Context) (int64, error)
	NewChangeProbe() (versioner, error)
	Watch(ctx context.Context) (versioner, error)
}

// versioner is a change signal: Version differs from the previous call's
// whenever a commit happened in between (it may also differ without one).
type versioner interface {
	Version(ctx context.Context) (int64, error)
	Close() error
}

// sqliteBackend is a SQLite file (or in-memory database).
type sqliteBackend struct{ db *sqlite.DB }

func (b sqliteBackend) Path() string { return b.db.Path() }
func (b sqliteBackend) Close() error { return b.db.Close() }
func (b sqliteBackend) QuickCheck(ctx context.Context) ([]string, error) {
	return b.db.QuickCheck(ctx)
}
func (b sqliteBackend) NeedsMigration(ctx context.Context) (bool, error) {
	return b.db.NeedsMigration(ctx)
}
func (b sqliteBackend) UserVersion(ctx context.Context) (int64, error) { return b.db.UserVersion(ctx) }

func (b sqliteBackend) NewChangeProbe() (versioner, error) {
	p, err := b.db.NewChangeProbe()
	if err != nil {
		return nil, err
	}
	return p, nil
}

func (b sqliteBackend) Watch(ctx context.Context) (versioner, error) {
	w, err := b.db.Watch(ctx)
	if err != nil {
		return nil, err
	}
	return w, nil
}

// ChangeProbe tells cheaply whether any process has committed to the
// database since the last look: for SQLite, PRAGMA data_version on a
// read-only connection of its own (see sqlite.ChangeProbe); for
// PostgreSQL, the server's transaction snapshot (see
// postgres.ChangeSignal). It never writes. Not safe for concurrent use:
// one poller owns it.
type ChangeProbe struct{ v versioner }

// Version returns a number that differs from the previous call's whenever
// a commit happened in between (it may also differ without a commit, and
// a caller must then find nothing new).
func (p *ChangeProbe) Version(ctx context.Context) (int64, error) { return p.v.Version(ctx) }

// Close releases the probe's connection.
func (p *ChangeProbe) Close() error { return p.v.Close() }

// NewChangeProbe opens a probe on the store's database.
func (s *Store) NewChangeProbe() (*ChangeProbe, error) {
	v, err := s.be.NewChangeProbe()
	if err != nil {
		return nil, err
	}
	return &ChangeProbe{v: v}, nil
}
