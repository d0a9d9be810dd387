package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
	"github.com/agenttool/collab/core/store/storetest"
)

// openIndexed opens a new file and gives it the pending-review index at
// once, as an open does to a file with many completed tasks.
func openIndexed(t *testing.T) *DB {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.ensureReviewIndex(ctx, 0); err != nil {
		t.Fatal(err)
	}
	return db
}

// TestEngineKeepsTheSeamGuaranteesWithThePendingReviewIndex runs the
// engine suite on files holding the pending-review index: every read the
// index can serve answers as it does without it.
func TestEngineKeepsTheSeamGuaranteesWithThePendingReviewIndex(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Engine { return Engine{DB: openIndexed(t)} })
}

// TestPendingReviewsAreReadThroughTheirIndex asks SQLite's planner how it
// reads the completions awaiting review, in a workspace and across a
// repository's workspaces: through the partial index, not by visiting
// every completed task.
func TestPendingReviewsAreReadThroughTheirIndex(t *testing.T) {
	db := openIndexed(t)
	defer db.Close()
	reads := map[string]string{
		"a workspace's": "SELECT id FROM tasks WHERE workspace_id = 'ws' AND " + sqltx.PendingReview,
		"a repository's": `SELECT t.id FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
WHERE w.repository_key = 'k' AND t.status = 'completed' AND t.review_status = 'pending'`,
	}
	for name, query := range reads {
		if plan := queryPlan(t, db.read, query); !strings.Contains(plan, ReviewPendingIndex) {
			t.Errorf("%s pending reviews are read without %s:\n%s", name, ReviewPendingIndex, plan)
		}
	}
}
