package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/historygen"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// TestReferenceReadsAGeneratedJournal proves a journal written by
// core/historygen is one the reference opens, joins and verifies: its
// rows and hash chain are what a server writes.
func TestReferenceReadsAGeneratedJournal(t *testing.T) {
	ref := referenceImplementation(t)
	f, err := historygen.Cached(context.Background(), t.TempDir(), 1500)
	if err != nil {
		t.Fatal(err)
	}
	s := newSandbox(t)
	if err := os.MkdirAll(filepath.Dir(s.db), 0o700); err != nil {
		t.Fatal(err)
	}
	copyFile(t, f.DB, s.db)
	c, err := mcptest.Start(ref.argv, s.env())
	if err != nil {
		t.Fatalf("start reference: %v", err)
	}
	defer c.Close()
	ok(t, c, "collab_session_start", map[string]any{"root_path": f.Root, "actor": "reference"})
	v := ok(t, c, "collab_journal_verify", map[string]any{"workspace_id": f.WorkspaceID})
	if v["chain_valid"] != true {
		t.Fatalf("the reference finds the generated chain invalid: %v", v)
	}
}
