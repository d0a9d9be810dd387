package store

import "context"

// ChangeWatcher tells whether any process has committed to the database
// since it last looked: for SQLite, PRAGMA data_version on a connection of
// its own (see sqlite.ChangeWatcher); for PostgreSQL, the server's
// transaction snapshot (see postgres.ChangeSignal). It is safe for
// concurrent use.
type ChangeWatcher struct{ v ChangeSignal }

// Version returns a number that differs from the previous call's whenever
// another connection committed in between.
func (w *ChangeWatcher) Version(ctx context.Context) (int64, error) { return w.v.Version(ctx) }

// Close releases the watcher's connection.
func (w *ChangeWatcher) Close() error { return w.v.Close() }

// Watch returns a ChangeWatcher on its own connection; Close releases it.
func (s *Store) Watch(ctx context.Context) (*ChangeWatcher, error) {
	v, err := s.be.Watch(ctx)
	if err != nil {
		return nil, err
	}
	return &ChangeWatcher{v: v}, nil
}
