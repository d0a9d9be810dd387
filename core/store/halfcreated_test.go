package store_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// TestAFileNoServerFinishedCreatingHoldsNoJournal covers what a first
// server killed before its first migration committed leaves behind: an
// empty database file. A read-only open (verify, doctor) must report no
// journals rather than an SQL error, and the next server must create the
// schema in it and work.
func TestAFileNoServerFinishedCreatingHoldsNoJournal(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "collab.sqlite")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ro, err := backend.Open(ctx, backend.Options{Path: path, ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open of an empty file: %v", err)
	}
	results, err := ro.VerifyAll(ctx)
	ro.Close()
	if err != nil || len(results) != 0 {
		t.Fatalf("verify of an empty file: %v, %v; want no journals and no error", results, err)
	}
	if info, err := os.Stat(path); err != nil || info.Size() != 0 {
		t.Fatalf("the read-only open changed the file: %v, %v", info, err)
	}
	rw, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		t.Fatalf("the next server cannot open the file: %v", err)
	}
	defer rw.Close()
	opened, err := rw.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "next"})
	if err != nil {
		t.Fatalf("the next server cannot write: %v", err)
	}
	if ok, err := rw.VerifyJournal(ctx, opened.Workspace.ID); err != nil || !ok {
		t.Fatalf("journal after the next open: %v, %v", ok, err)
	}
}
