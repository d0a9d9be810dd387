package store

import (
	"context"
	"database/sql"

	"github.com/agenttool/collab/core/store/sqlite"
)

// Tx is the SQLite engine's transaction. Tests use it, below the rules,
// to inspect files and to damage them in ways no rule would.
type Tx = sqlite.Tx

// sqliteDB is the store's SQLite database; the tests that use it open
// SQLite stores only.
func (s *Store) sqliteDB() *sqlite.DB { return s.be.(sqliteBackend).db }

// rawWrite runs fn in one SQLite write transaction.
func (s *Store) rawWrite(ctx context.Context, fn func(tx *Tx) error) error {
	return s.sqliteDB().Write(ctx, fn)
}

// raw is the SQLite read pool, for tests that look at rows directly.
func (s *Store) raw() *sql.DB { return s.sqliteDB().ReadPool() }
