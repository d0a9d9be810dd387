package store

import "context"

// ChangeProbe tells cheaply whether any process has committed to the
// database since the last look: for SQLite, PRAGMA data_version on a
// read-only connection of its own (see sqlite.ChangeProbe); for
// PostgreSQL, the server's transaction snapshot (see
// postgres.ChangeSignal). It never writes. Not safe for concurrent use:
// one poller owns it.
type ChangeProbe struct{ v ChangeSignal }

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
