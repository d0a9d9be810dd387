package search_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
)

// fixtureDB is a database the reference 0.4.0 wrote: two workspaces, every
// event type, reports addressed and unaddressed.
const fixtureDB = "../store/testdata/fixtures/versions/v0.4.0/collab.sqlite"

// fixtureWS is the fixture's main workspace.
const fixtureWS = "ws_cdb568d8eb76bd185631b498"

// copyFixture copies the reference fixture into a private directory and
// returns its path.
func copyFixture(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	dst := filepath.Join(dir, "collab.sqlite")
	in, err := os.Open(fixtureDB)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return dst
}

func openStore(t testing.TB, path string) *store.Store {
	t.Helper()
	st, err := backend.Open(context.Background(), backend.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func openIndex(t testing.TB, st *store.Store) *search.Index {
	t.Helper()
	ix, err := search.Open(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func find(t testing.TB, ix *search.Index, q search.Query) search.Result {
	t.Helper()
	res, err := ix.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %q: %v", q.Text, err)
	}
	return res
}

// legacyWorld is a store with one legacy workspace in a temporary
// directory, for tests that write their own events.
type legacyWorld struct {
	st   *store.Store
	path string
	ws   string
	n    int
}

func newLegacyWorld(t testing.TB) *legacyWorld {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "repo")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "collab.sqlite")
	st := openStore(t, path)
	opened, err := st.OpenWorkspace(context.Background(), store.OpenWorkspaceInput{RootPath: root, Actor: "setup", RepositoryKey: "search-test"})
	if err != nil {
		t.Fatal(err)
	}
	return &legacyWorld{st: st, path: path, ws: opened.Workspace.ID}
}

// task creates one legacy task as actor with the given title.
func (w *legacyWorld) task(t testing.TB, actor, title string) {
	t.Helper()
	w.n++
	_, err := w.st.CreateTask(context.Background(), store.LabelActor(actor), store.CreateTaskInput{WorkspaceID: w.ws,
		IdempotencyKey: fmt.Sprintf("k%d", w.n), Title: title})
	if err != nil {
		t.Fatal(err)
	}
}
