package search

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sync"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// Index is the search index of one open store. It is safe for concurrent
// use: up to Options.Readers searches read the sidecar at once, each
// bounded by Options.Deadline, so one slow search never makes another
// wait for it. Catching up and repairs are serialised within the process,
// and several processes may share one sidecar file: catching up takes the
// sidecar's write lock, so they queue rather than index the same events
// twice.
type Index struct {
	store *store.Store
	path  string
	opts  Options

	// write serialises catch-up, rebuild and repair in this process. It
	// is never taken while mu is held.
	write sync.Mutex

	// mu guards the fields below; it is held only to read or swap them
	// (and, rarely, while a replaced file is opened), never while a
	// search runs.
	mu   sync.Mutex
	db   *sql.DB
	info os.FileInfo
	// abandoned holds connections to sidecar files that were replaced
	// under this process. They are never closed: closing would let SQLite
	// delete a journal file by name that now belongs to the new file.
	abandoned []*sql.DB
}

// Open returns the index of st with the default Options, creating or
// repairing its sidecar as needed. An in-memory store gets an in-memory
// index.
func Open(ctx context.Context, st *store.Store) (*Index, error) {
	return OpenWith(ctx, st, Options{})
}

// OpenWith is Open with explicit Options.
func OpenWith(ctx context.Context, st *store.Store, opts Options) (*Index, error) {
	ix := &Index{store: st, path: memoryPath, opts: opts.withDefaults()}
	if st.Path() != backend.MemoryPath {
		ix.path = SidecarPath(st.Path())
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.reopenLocked(ctx, nil); err != nil {
		return nil, err
	}
	return ix, nil
}

// Path returns the sidecar file's path (":memory:" for an in-memory store).
func (ix *Index) Path() string { return ix.path }

// Close releases the sidecar connections. Searches still running are
// waited for; each ends within its deadline, or sooner when its context
// ends.
func (ix *Index) Close() error {
	ix.mu.Lock()
	db := ix.db
	ix.db = nil
	ix.mu.Unlock()
	if db == nil {
		return nil
	}
	return db.Close()
}

// readers returns how many connections the sidecar pool keeps.
func (ix *Index) readers() int {
	if ix.path == memoryPath {
		// Every connection to :memory: is a database of its own.
		return 1
	}
	return ix.opts.Readers
}

// reopenLocked opens the file now at the sidecar path, unless the index
// has already moved on from stale (someone else repaired it first). The
// caller holds mu.
func (ix *Index) reopenLocked(ctx context.Context, stale *sql.DB) error {
	if stale != nil && ix.db != stale {
		return nil
	}
	db, info, err := openSidecar(ctx, ix.path, ix.readers())
	if err != nil {
		return err
	}
	if ix.db != nil {
		ix.abandoned = append(ix.abandoned, ix.db)
	}
	ix.db, ix.info = db, info
	return nil
}

// current returns the connections to the file now at the sidecar path: a
// sidecar deleted or replaced by someone else is reopened first.
func (ix *Index) current(ctx context.Context) (*sql.DB, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.db == nil {
		return nil, fmt.Errorf("the search index is closed")
	}
	if ix.path == memoryPath {
		return ix.db, nil
	}
	now, err := os.Lstat(ix.path)
	if err == nil && os.SameFile(now, ix.info) {
		return ix.db, nil
	}
	if err := ix.reopenLocked(ctx, ix.db); err != nil {
		return nil, err
	}
	return ix.db, nil
}

// withRepair runs fn on the current connections and, when the sidecar
// turns out to be damaged (garbage, truncated, emptied, its tables gone),
// replaces the file and runs fn once more on a fresh index.
func (ix *Index) withRepair(ctx context.Context, fn func(db *sql.DB) error) error {
	db, err := ix.current(ctx)
	if err != nil {
		return err
	}
	err = fn(db)
	if err == nil || !isDamaged(err) || ix.path == memoryPath {
		return err
	}
	if db, err = ix.repair(ctx, db); err != nil {
		return err
	}
	return fn(db)
}

// repair replaces the damaged sidecar that broken is connected to, unless
// another search in this process already did, and returns the
// connections to use now.
func (ix *Index) repair(ctx context.Context, broken *sql.DB) (*sql.DB, error) {
	ix.write.Lock()
	defer ix.write.Unlock()
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.db == nil {
		return nil, fmt.Errorf("the search index is closed")
	}
	if ix.db == broken {
		if err := removeSidecar(ix.path); err != nil {
			return nil, err
		}
		if err := ix.reopenLocked(ctx, broken); err != nil {
			return nil, err
		}
	}
	return ix.db, nil
}

// Rebuild empties the index and indexes every journal again from the start.
func (ix *Index) Rebuild(ctx context.Context) error {
	return ix.withRepair(ctx, func(db *sql.DB) error {
		ix.write.Lock()
		defer ix.write.Unlock()
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("rebuild search index: %w", err)
		}
		defer tx.Rollback() //nolint:errcheck // committed below on success
		if err := dropAll(ctx, tx); err != nil {
			return err
		}
		if err := createSchema(ctx, tx); err != nil {
			return err
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("rebuild search index: %w", err)
		}
		_, err = ix.catchUpLocked(ctx, db, "")
		return err
	})
}

// CatchUp indexes whatever the journal of workspaceID (every workspace
// when it is empty) gained since the index last saw it, and reports how
// many events it read.
func (ix *Index) CatchUp(ctx context.Context, workspaceID string) (int, error) {
	var n int
	err := ix.withRepair(ctx, func(db *sql.DB) error {
		var err error
		n, err = ix.catchUp(ctx, db, workspaceID)
		return err
	})
	return n, err
}
