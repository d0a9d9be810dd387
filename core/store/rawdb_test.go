package store_test

import (
	"context"
	"database/sql"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqlite"
)

// Tx is the SQLite engine's transaction. Tests use it, below the rules,
// to inspect files and to damage them in ways no rule would.
type Tx = sqlite.Tx

// sqliteDB is the store's SQLite database; the tests that use it open
// SQLite stores only.
func sqliteDB(s *store.Store) *sqlite.DB { return store.BackendOf(s).(backend.SQLite).DB }

// rawWrite runs fn in one SQLite write transaction.
func rawWrite(ctx context.Context, s *store.Store, fn func(tx *Tx) error) error {
	return sqliteDB(s).Write(ctx, fn)
}

// readPool is the SQLite read pool, for tests that look at rows directly.
func readPool(s *store.Store) *sql.DB { return sqliteDB(s).ReadPool() }
