package search_test

import (
	"context"
	"database/sql"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/search"
)

func hitCount(t *testing.T, ix *search.Index, ws, text string) int {
	t.Helper()
	return len(find(t, ix, search.Query{WorkspaceID: ws, Text: text, Limit: search.MaxLimit}).Hits)
}

func TestSidecarIsPrivateAndBesideTheDatabase(t *testing.T) {
	w := newLegacyWorld(t)
	w.task(t, "ann", "zeta")
	ix := openIndex(t, w.st)
	if ix.Path() != w.path+".search" {
		t.Errorf("sidecar at %s", ix.Path())
	}
	hitCount(t, ix, w.ws, "zeta")
	info, err := os.Stat(ix.Path())
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("sidecar mode %v (%v)", info, err)
	}
}

func TestRebuildsAfterTheSidecarIsDeleted(t *testing.T) {
	w := newLegacyWorld(t)
	w.task(t, "ann", "theta one")
	ix := openIndex(t, w.st)
	if hitCount(t, ix, w.ws, "theta") != 1 {
		t.Fatal("not indexed")
	}
	if err := os.Remove(ix.Path()); err != nil {
		t.Fatal(err)
	}
	w.task(t, "ann", "theta two")
	if n := hitCount(t, ix, w.ws, "theta"); n != 2 {
		t.Fatalf("after deleting the sidecar: %d hits, want 2", n)
	}
	if _, err := os.Stat(ix.Path()); err != nil {
		t.Fatalf("sidecar not recreated: %v", err)
	}
}

func TestRebuildsAfterTheSidecarIsCorrupted(t *testing.T) {
	for _, c := range []struct {
		name   string
		offset int64
	}{{"header", 0}, {"pages", 4096}} {
		t.Run(c.name, func(t *testing.T) {
			w := newLegacyWorld(t)
			for i := 0; i < 50; i++ {
				w.task(t, "ann", "iota entry with enough words to fill several pages of the index")
			}
			ix := openIndex(t, w.st)
			if n := hitCount(t, ix, w.ws, "iota"); n != 50 {
				t.Fatalf("%d hits", n)
			}
			ix.Close()
			scribble(t, ix.Path(), c.offset)
			again := openIndex(t, w.st)
			if n := hitCount(t, again, w.ws, "iota"); n != 50 {
				t.Fatalf("after corruption: %d hits, want 50", n)
			}
		})
	}
}

// scribble overwrites the rest of a file from offset with garbage.
func scribble(t *testing.T, path string, offset int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, _ := f.Stat()
	garbage := make([]byte, info.Size()-offset)
	for i := range garbage {
		garbage[i] = byte(i*7 + 13)
	}
	if _, err := f.WriteAt(garbage, offset); err != nil {
		t.Fatal(err)
	}
}

func TestCatchesUpWithWritesFromAnotherConnection(t *testing.T) {
	w := newLegacyWorld(t)
	ix := openIndex(t, w.st)
	if hitCount(t, ix, w.ws, "kappa") != 0 {
		t.Fatal("phantom hit")
	}
	other := openStore(t, w.path)
	second := &legacyWorld{st: other, path: w.path, ws: w.ws, n: 1000}
	second.task(t, "bob", "kappa from elsewhere")
	if hitCount(t, ix, w.ws, "kappa") != 1 {
		t.Fatal("the other writer's event was not found")
	}
	n, err := ix.CatchUp(context.Background(), "")
	if err != nil || n != 0 {
		t.Errorf("an up-to-date index read %d events (%v)", n, err)
	}
}

func TestRebuildsAWorkspaceAfterAJournalRewind(t *testing.T) {
	w := newLegacyWorld(t)
	w.task(t, "ann", "lambda kept")
	snapshot := consistentCopy(t, w.path)
	w.task(t, "ann", "lambda lost")
	ix := openIndex(t, w.st)
	if hitCount(t, ix, w.ws, "lambda") != 2 {
		t.Fatal("not indexed")
	}
	ix.Close()
	w.st.Close()
	restore(t, snapshot, w.path)
	st := openStore(t, w.path)
	rewound := &legacyWorld{st: st, path: w.path, ws: w.ws, n: 500}
	rewound.task(t, "ann", "lambda rewritten")
	ix = openIndex(t, st)
	res := find(t, ix, search.Query{WorkspaceID: w.ws, Text: "lambda", Limit: 10})
	if len(res.Hits) != 2 {
		t.Fatalf("after the rewind: %+v", res.Hits)
	}
	for _, h := range res.Hits {
		if h.Title == "lambda lost" {
			t.Errorf("an event the journal no longer has is still found: %+v", h)
		}
	}
}

func TestIgnoresASidecarOfAnotherDatabase(t *testing.T) {
	a := newLegacyWorld(t)
	a.task(t, "ann", "mu from the first database")
	ixA := openIndex(t, a.st)
	hitCount(t, ixA, a.ws, "mu")
	ixA.Close()
	b := newLegacyWorld(t)
	b.task(t, "ann", "nu from the second database")
	restore(t, copyOf(t, ixA.Path()), b.path+".search")
	ixB := openIndex(t, b.st)
	if n := hitCount(t, ixB, "", "mu"); n != 0 {
		t.Errorf("%d hits from the other database", n)
	}
	if n := hitCount(t, ixB, "", "nu"); n != 1 {
		t.Errorf("%d hits from this database", n)
	}
}

func TestRebuildReindexesEverything(t *testing.T) {
	ix := openIndex(t, openStore(t, copyFixture(t)))
	before := hitCount(t, ix, "", "test")
	if err := ix.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after := hitCount(t, ix, "", "test"); after != before || after == 0 {
		t.Errorf("%d hits before the rebuild, %d after", before, after)
	}
}

// consistentCopy returns the database's bytes including what is still
// in its write-ahead log.
func consistentCopy(t *testing.T, path string) []byte {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	dst := filepath.Join(t.TempDir(), "snapshot.sqlite")
	if _, err := db.Exec("VACUUM INTO ?", dst); err != nil {
		t.Fatal(err)
	}
	return copyOf(t, dst)
}

func copyOf(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// restore replaces path (and any WAL beside it) with b.
func restore(t testing.TB, b []byte, path string) {
	t.Helper()
	os.Remove(path + "-wal")
	os.Remove(path + "-shm")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}
