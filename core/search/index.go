package search

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sync"

	"github.com/agenttool/collab/core/store"
)

// Index is the search index of one open store. It is safe for concurrent
// use; calls are serialised on its one sidecar connection. Several
// processes may share one sidecar file: catching up takes the sidecar's
// write lock, so they queue rather than index the same events twice.
type Index struct {
	store *store.Store
	path  string

	mu   sync.Mutex
	db   *sql.DB
	info os.FileInfo
	// abandoned holds connections to sidecar files that were replaced
	// under this process. They are never closed: closing would let SQLite
	// delete a journal file by name that now belongs to the new file.
	abandoned []*sql.DB
}

// Open returns the index of st, creating or repairing its sidecar as
// needed. An in-memory store gets an in-memory index.
func Open(ctx context.Context, st *store.Store) (*Index, error) {
	ix := &Index{store: st, path: memoryPath}
	if st.Path() != store.MemoryPath {
		ix.path = SidecarPath(st.Path())
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if err := ix.reopen(ctx); err != nil {
		return nil, err
	}
	return ix, nil
}

// Path returns the sidecar file's path (":memory:" for an in-memory store).
func (ix *Index) Path() string { return ix.path }

// Close releases the sidecar connection.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.db == nil {
		return nil
	}
	err := ix.db.Close()
	ix.db = nil
	return err
}

func (ix *Index) reopen(ctx context.Context) error {
	db, info, err := openSidecar(ctx, ix.path)
	if err != nil {
		return err
	}
	if ix.db != nil {
		ix.abandoned = append(ix.abandoned, ix.db)
	}
	ix.db, ix.info = db, info
	return nil
}

// current makes sure the connection is on the file now at the sidecar
// path: a sidecar deleted or replaced by someone else is reopened.
func (ix *Index) current(ctx context.Context) error {
	if ix.db == nil {
		return fmt.Errorf("the search index is closed")
	}
	if ix.path == memoryPath {
		return nil
	}
	now, err := os.Stat(ix.path)
	if err == nil && os.SameFile(now, ix.info) {
		return nil
	}
	return ix.reopen(ctx)
}

// withRepair runs fn and, when the sidecar turns out to be damaged,
// replaces the file and runs fn once more on a fresh index.
func (ix *Index) withRepair(ctx context.Context, fn func() error) error {
	if err := ix.current(ctx); err != nil {
		return err
	}
	err := fn()
	if err == nil || !isDamaged(err) || ix.path == memoryPath {
		return err
	}
	if err := removeSidecar(ix.path); err != nil {
		return err
	}
	if err := ix.reopen(ctx); err != nil {
		return err
	}
	return fn()
}

// Rebuild empties the index and indexes every journal again from the start.
func (ix *Index) Rebuild(ctx context.Context) error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.withRepair(ctx, func() error {
		tx, err := ix.db.BeginTx(ctx, nil)
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
		_, err = ix.catchUp(ctx, "")
		return err
	})
}

// CatchUp indexes whatever the journal of workspaceID (every workspace
// when it is empty) gained since the index last saw it, and reports how
// many events it read.
func (ix *Index) CatchUp(ctx context.Context, workspaceID string) (int, error) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	var n int
	err := ix.withRepair(ctx, func() error {
		var err error
		n, err = ix.catchUp(ctx, workspaceID)
		return err
	})
	return n, err
}
