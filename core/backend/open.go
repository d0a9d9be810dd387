// Package backend opens the storage engine a database value names (a
// SQLite file, the in-memory marker, or a PostgreSQL URL) and puts the
// coordination rules of package store on top of it. It is the one package
// that imports both engines; hosts and commands open journals here.
package backend

import (
	"context"
	"time"

	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqlite"
)

// MemoryPath opens a private in-memory database (no credential files).
const MemoryPath = sqlite.MemoryPath

// ApplicationID marks a collab database ("ATCL"); SchemaVersion is the
// user_version this implementation reads and writes.
const (
	ApplicationID = sqlite.ApplicationID
	SchemaVersion = sqlite.SchemaVersion
)

// Options configure Open.
type Options struct {
	// Path is the database file; MemoryPath for an in-memory database; or
	// a PostgreSQL URL as place.IsPostgres decides. A relative path is made
	// absolute against the working directory.
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

// Open opens (creating if needed) the collab database described by opts,
// validates its shape and journals, and migrates older layouts to the
// current schema in one transaction. A file it cannot accept is left
// unchanged.
func Open(ctx context.Context, opts Options) (*store.Store, error) {
	be, cfg, err := OpenBackend(ctx, opts)
	if err != nil {
		return nil, err
	}
	return store.New(be, cfg), nil
}

// OpenBackend is Open without the rules on top: the engine opts names,
// opened, validated and migrated as Open does, and the store
// configuration it was opened with, for a caller that wraps the engine
// before handing it to store.New (the history generator, which makes many
// mutations share one transaction).
func OpenBackend(ctx context.Context, opts Options) (store.Backend, store.Config, error) {
	cfg := store.Config{Now: opts.Now, Observe: opts.Observe, Capture: opts.Capture}.WithDefaults()
	var be store.Backend
	var err error
	if place.IsPostgres(opts.Path) {
		be, err = openPostgres(ctx, opts)
	} else {
		be, err = openSQLite(ctx, opts, cfg)
	}
	if err != nil {
		return nil, cfg, err
	}
	return be, cfg, nil
}
