package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// ChangeWatcher tells whether any process has committed to the database
// since it last looked. It holds one connection of the read pool and asks
// SQLite for PRAGMA data_version, which changes exactly when another
// connection has committed: one cheap call per poll, no table read. It is
// safe for concurrent use.
type ChangeWatcher struct {
	mu   sync.Mutex
	conn *sql.Conn
}

// Watch returns a ChangeWatcher on its own connection; Close releases it.
func (s *DB) Watch(ctx context.Context) (*ChangeWatcher, error) {
	conn, err := s.read.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("open watch connection: %w", err)
	}
	return &ChangeWatcher{conn: conn}, nil
}

// Version returns the connection's current data_version. Two calls return
// different values if and only if another connection committed between them.
func (w *ChangeWatcher) Version(ctx context.Context) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var v int64
	if err := w.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read data_version: %w", err)
	}
	return v, nil
}

// Close releases the watcher's connection.
func (w *ChangeWatcher) Close() error { return w.conn.Close() }
