package main

import (
	"fmt"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// reviewIndexHistory is a generated journal with more completed tasks
// and offers than an open lets a file hold before it gains the
// pending-review index (256 completed tasks) and the pending-offers index
// (32 offers); reviewIndexSmall, one with fewer of both.
const (
	reviewIndexHistory = 5000
	reviewIndexSmall   = 1500
)

// TestALongHistoryGainsTheLongTableIndexesAndTheReferenceKeepsThem opens
// generated journals with a server: the one with many completed tasks and
// offers gains both partial indexes and the smaller one neither; the
// reference then opens the indexed file, verifies it and writes tasks to
// it, SQLite finds every index entry matching its row, and our server
// reads its completions awaiting review as stored.
func TestALongHistoryGainsTheLongTableIndexesAndTheReferenceKeepsThem(t *testing.T) {
	indexCount := "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN ('collab_tasks_review_pending_idx', 'collab_handoffs_pending_idx')"
	for _, n := range []int64{reviewIndexSmall, reviewIndexHistory} {
		f, s := historySandbox(t, t.TempDir(), n)
		s.start().Close()
		want := map[bool]int64{true: 2, false: 0}[n == reviewIndexHistory]
		if got := queryInt(t, s.db, indexCount); got != want {
			t.Fatalf("after an open of %d events the file holds %d long-table indexes, want %d", n, got, want)
		}
		if n != reviewIndexHistory {
			continue
		}
		// A third of the completions awaiting review, written as a v2
		// client writes (its guard row lifts the triggers meanwhile).
		sqlExec(t, s.db, `BEGIN; INSERT INTO v2_write_guard VALUES ('test', 1);
UPDATE tasks SET review_status = 'pending' WHERE status = 'completed' AND rowid % 3 = 0;
DELETE FROM v2_write_guard; COMMIT`)
		pending := queryInt(t, s.db, "SELECT count(*) FROM tasks WHERE status = 'completed' AND review_status = 'pending'")
		ref := referenceImplementation(t)
		c, err := mcptest.Start(ref.argv, s.env())
		if err != nil {
			t.Fatalf("the reference refused a file holding the pending-review index: %v", err)
		}
		ok(t, c, "collab_session_start", map[string]any{"root_path": f.Root, "actor": "reference"})
		if got := ok(t, c, "collab_journal_verify", map[string]any{"workspace_id": f.WorkspaceID}); got["chain_valid"] != true {
			t.Fatalf("the reference finds the chain invalid: %v", got)
		}
		for i := 0; i < 3; i++ {
			ok(t, c, "collab_task_create", map[string]any{"workspace_id": f.WorkspaceID, "actor": "reference",
				"idempotency_key": fmt.Sprintf("ref-%d", i), "title": "made by the reference", "path_scopes": []any{"docs/ref.md"}})
		}
		c.Close()
		if got := queryText(t, s.db, "PRAGMA integrity_check"); got != "ok" {
			t.Fatalf("after the reference's writes SQLite's integrity check reports %q", got)
		}
		ours := s.start()
		got := ok(t, ours, "collab_workspace_status", map[string]any{"workspace_id": f.WorkspaceID})
		ours.Close()
		if reviews, _ := got["pending_reviews"].([]any); int64(len(reviews)) != pending {
			t.Fatalf("collab_workspace_status lists %d completions awaiting review, the file holds %d", len(reviews), pending)
		}
	}
}
