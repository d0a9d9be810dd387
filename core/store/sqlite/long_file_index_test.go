package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/storetest"
)

// openIndexed opens a new file and gives it every long-table index at
// once, as an open does to a file whose tables are long.
func openIndexed(t *testing.T) *DB {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	for _, ix := range longTableIndexes {
		if err := db.ensureIndex(ctx, ix, 0); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

// TestEngineKeepsTheSeamGuaranteesWithTheLongTableIndexes runs the engine
// suite on files holding the pending-review and pending-offers indexes:
// every read they can serve answers as it does without them.
func TestEngineKeepsTheSeamGuaranteesWithTheLongTableIndexes(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Engine { return Engine{DB: openIndexed(t)} })
}

// TestLongTableIndexesWaitForTheirThreshold opens files below and at each
// index's threshold: the index appears only once its table holds that
// many rows, so a small file keeps the reference's schema.
func TestLongTableIndexesWaitForTheirThreshold(t *testing.T) {
	ctx := context.Background()
	for _, ix := range longTableIndexes {
		t.Run(ix.name, func(t *testing.T) {
			db, err := Open(ctx, Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if err := db.ensureIndex(ctx, ix, 1); err != nil {
				t.Fatal(err)
			}
			if indexed(t, db, ix.name) {
				t.Fatalf("an empty file gained %s", ix.name)
			}
			if err := db.ensureIndex(ctx, ix, 0); err != nil {
				t.Fatal(err)
			}
			if !indexed(t, db, ix.name) {
				t.Fatalf("a file at the threshold lacks %s", ix.name)
			}
		})
	}
}

func indexed(t *testing.T, db *DB, name string) bool {
	t.Helper()
	var n int
	if err := db.read.QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?", name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}
