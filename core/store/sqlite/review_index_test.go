package sqlite

import (
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store/sqltx"
)

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
