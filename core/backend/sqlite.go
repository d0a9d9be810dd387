package backend

import (
	"context"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqlite"
)

// SQLite is a SQLite file (or in-memory database) as a store.Backend.
type SQLite struct{ sqlite.Engine }

// openSQLite opens the file opts.Path names with the store's clock and
// observer (the migration of old layouts journals what they report).
func openSQLite(ctx context.Context, opts Options, cfg store.Config) (store.Backend, error) {
	db, err := sqlite.Open(ctx, sqlite.Options{Path: opts.Path, Now: cfg.Now, Observe: cfg.Observe,
		ReadOnly: opts.ReadOnly, Inspect: opts.Inspect, Synchronous: opts.Synchronous, LockWait: opts.LockWait})
	if err != nil {
		return nil, err
	}
	return SQLite{sqlite.Engine{DB: db}}, nil
}

// NewChangeProbe opens a PRAGMA data_version probe on a read-only
// connection of its own (see sqlite.ChangeProbe).
func (b SQLite) NewChangeProbe() (store.ChangeSignal, error) {
	p, err := b.DB.NewChangeProbe()
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Watch opens the file's shared change watcher (see sqlite.ChangeWatcher).
func (b SQLite) Watch(ctx context.Context) (store.ChangeSignal, error) {
	w, err := b.DB.Watch(ctx)
	if err != nil {
		return nil, err
	}
	return w, nil
}
