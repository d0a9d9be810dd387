package sqlite

import (
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store/sqltx"
)

// TestPendingOffersAreReadThroughTheirIndex asks SQLite's planner how a
// poll's sweep reads a workspace's pending offers, of the workspace and
// of one task and of one session: through the partial index of pending
// offers, not by visiting every offer ever made.
func TestPendingOffersAreReadThroughTheirIndex(t *testing.T) {
	db := openIndexed(t)
	defer db.Close()
	reads := map[string]string{
		"a workspace's": "SELECT id FROM handoffs WHERE workspace_id = 'ws' AND " + sqltx.PendingOffer,
		"a task's":      "SELECT id FROM handoffs WHERE workspace_id = 'ws' AND " + sqltx.PendingOffer + " AND task_id = 't'",
		"a session's":   "SELECT id FROM handoffs WHERE workspace_id = 'ws' AND " + sqltx.PendingOffer + " AND to_session_id = 's'",
	}
	for name, query := range reads {
		if plan := queryPlan(t, db.read, query); !strings.Contains(plan, PendingOffersIndex) {
			t.Errorf("%s pending offers are read without %s:\n%s", name, PendingOffersIndex, plan)
		}
	}
}
