package sqlite

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/storetest"
)

// openIndexed opens a new file and gives it every long-file index and the
// task counts at once, as an open does to a file whose tables are long.
func openIndexed(t *testing.T) *DB {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	all := slices.Clone(longFileIndexes)
	for i := range all {
		all[i].after = 0
	}
	if err := db.ensureIndexes(ctx, all); err != nil {
		t.Fatal(err)
	}
	if err := db.ensureTaskCounts(ctx, nil, 0); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestEngineKeepsTheSeamGuaranteesWithTheLongTableIndexes runs the engine
// suite on files holding every long-file index (events by type, pending
// reviews, pending offers) and the task counts: every read they can serve
// answers as it does without them.
func TestEngineKeepsTheSeamGuaranteesWithTheLongTableIndexes(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Engine { return Engine{DB: openIndexed(t)} })
}

// TestLongTableIndexesWaitForTheirThreshold opens files below and at each
// index's threshold: the index appears only once its table holds that
// many rows, so a small file keeps the reference's schema.
func TestLongTableIndexesWaitForTheirThreshold(t *testing.T) {
	ctx := context.Background()
	for _, ix := range longFileIndexes {
		t.Run(ix.name, func(t *testing.T) {
			db, err := Open(ctx, Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ix.after = 1
			if err := db.ensureIndexes(ctx, []longFileIndex{ix}); err != nil {
				t.Fatal(err)
			}
			if indexed(t, db, ix.name) {
				t.Fatalf("an empty file gained %s", ix.name)
			}
			ix.after = 0
			if err := db.ensureIndexes(ctx, []longFileIndex{ix}); err != nil {
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

// ensureIndexes is what an open does for list's indexes alone: it reads
// which of them the file holds, then creates those it has grown to need.
func (s *DB) ensureIndexes(ctx context.Context, list []longFileIndex) error {
	objects, err := schemaObjects(ctx, s.write, indexNames(list))
	if err != nil {
		return err
	}
	return s.ensureIndexesAmong(ctx, list, objects)
}
