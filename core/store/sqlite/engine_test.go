package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/storetest"
)

// TestEngineKeepsTheSeamGuarantees runs the engine suite against SQLite
// files (the in-memory database has one connection, so it cannot show
// concurrent writers serialising).
func TestEngineKeepsTheSeamGuarantees(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Engine {
		db, err := Open(context.Background(), Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
		if err != nil {
			t.Fatal(err)
		}
		return Engine{DB: db}
	})
}
