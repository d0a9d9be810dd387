package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/engine/enginetest"
)

// TestEngineKeepsTheSeamGuarantees runs the engine suite against SQLite
// files (the in-memory database has one connection, so it cannot show
// concurrent writers serialising).
func TestEngineKeepsTheSeamGuarantees(t *testing.T) {
	enginetest.Run(t, func(t *testing.T) engine.Engine {
		db, err := Open(context.Background(), Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
		if err != nil {
			t.Fatal(err)
		}
		return Engine{DB: db}
	})
}
