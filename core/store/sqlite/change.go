package sqlite

import (
	"context"
	"database/sql"
	"fmt"
)

// ChangeProbe tells cheaply whether any process has committed to the
// database since the last look. For a file it holds one read-only
// connection of its own and asks SQLite's PRAGMA data_version, which
// changes exactly when another connection (of any process) commits; for
// an in-memory store, which no other process can reach, it reads the sum
// of the journal heads instead. It never writes. Not safe for concurrent
// use: one poller owns it.
type ChangeProbe struct {
	conn   *sql.DB
	stmt   *sql.Stmt
	memory *DB
}

// NewChangeProbe opens a probe on the store's database.
func (s *DB) NewChangeProbe() (*ChangeProbe, error) {
	if s.memory {
		return &ChangeProbe{memory: s}, nil
	}
	db, err := openPool(s.path, "deferred", s.sync, readOnlyAccess, s.lockWait, 1)
	if err != nil {
		return nil, err
	}
	// One prepared statement on the probe's only connection: a poll is
	// then a step and a reset, nothing more.
	stmt, err := db.Prepare("PRAGMA data_version")
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("prepare change probe: %w", err)
	}
	return &ChangeProbe{conn: db, stmt: stmt}, nil
}

// Version returns a number that differs from the previous call's whenever
// a commit happened in between (it may also differ without a commit, and
// a caller must then find nothing new).
func (p *ChangeProbe) Version(ctx context.Context) (int64, error) {
	var v int64
	var err error
	if p.memory != nil {
		err = p.memory.read.QueryRowContext(ctx, "SELECT COALESCE(SUM(event_head_sequence), 0) FROM workspaces").Scan(&v)
	} else {
		err = p.stmt.QueryRowContext(ctx).Scan(&v)
	}
	if err != nil {
		return 0, fmt.Errorf("probe for changes: %w", err)
	}
	return v, nil
}

// Close releases the probe's connection.
func (p *ChangeProbe) Close() error {
	if p.conn != nil {
		p.stmt.Close()
		return p.conn.Close()
	}
	return nil
}
