package main

import (
	"os"
	"strconv"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// TestReferenceReadsAGeneratedJournal proves a journal written by
// core/historygen is one the reference opens, joins and verifies: its
// rows and hash chain are what a server writes. It reads a 1,500-event
// journal, or one of COLLAB_HISTORY_EVENTS events (cached under
// COLLAB_HISTORY_DIR, as the history benchmark does) to check a longer one.
func TestReferenceReadsAGeneratedJournal(t *testing.T) {
	ref := referenceImplementation(t)
	n, dir := int64(1500), t.TempDir()
	if extra, err := strconv.ParseInt(os.Getenv("COLLAB_HISTORY_EVENTS"), 10, 64); err == nil && extra > 0 {
		n, dir = extra, os.Getenv("COLLAB_HISTORY_DIR")
	}
	f, s := historySandbox(t, dir, n)
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
