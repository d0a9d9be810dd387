package main

import (
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store/sqlite"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// giveTaskCounts gives the file the task counts in one transaction, as an
// open of a file with many completed tasks does.
func giveTaskCounts(t testing.TB, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("BEGIN IMMEDIATE; " + strings.Join(sqlite.TaskCountsDDL, "; ") + "; COMMIT"); err != nil {
		t.Fatalf("give the file task counts: %v", err)
	}
}

// countsMatchRows requires the count table to hold, for every workspace
// and status, exactly the rows' count (no group missing, none extra but
// zeros), and status served by c to report the completed ones.
func countsMatchRows(t *testing.T, c *mcptest.Client, db, ws, label string) {
	t.Helper()
	wrong := queryInt(t, db, `SELECT (SELECT count(*) FROM (
  SELECT workspace_id, status, count(*) AS n FROM tasks GROUP BY workspace_id, status
  EXCEPT SELECT workspace_id, status, n FROM collab_task_counts))
+ (SELECT count(*) FROM collab_task_counts c WHERE n != (SELECT count(*) FROM tasks t
  WHERE t.workspace_id = c.workspace_id AND t.status = c.status))`)
	if wrong != 0 {
		t.Fatalf("%s: %d task counts differ from the rows", label, wrong)
	}
	want := queryInt(t, db, "SELECT count(*) FROM tasks WHERE workspace_id = ? AND status = 'completed'", ws)
	if got := num(ok(t, c, "collab_workspace_status", map[string]any{"workspace_id": ws}), "counts.completed"); got != want {
		t.Fatalf("%s: collab_workspace_status counts %d completed tasks, the file holds %d", label, got, want)
	}
}

// taskLife creates, claims and completes a task through c, blocking and
// unblocking it on the way.
func taskLife(t *testing.T, c *mcptest.Client, ws, actor, id string) {
	t.Helper()
	a := func(key string, extra map[string]any) map[string]any {
		return merge(map[string]any{"workspace_id": ws, "actor": actor, "idempotency_key": id + "-" + key, "task_id": id}, extra)
	}
	ok(t, c, "collab_task_create", a("create", map[string]any{"title": "task " + id}))
	lease := str(ok(t, c, "collab_task_claim", a("claim", map[string]any{"expected_version": 1})), "task.lease_id")
	ok(t, c, "collab_task_block", a("block", map[string]any{"lease_id": lease, "expected_version": 2, "blocker": "b"}))
	ok(t, c, "collab_task_unblock", a("unblock", map[string]any{"expected_version": 3}))
	lease = str(ok(t, c, "collab_task_claim", a("claim-2", map[string]any{"expected_version": 4})), "task.lease_id")
	ok(t, c, "collab_task_complete", a("complete", map[string]any{"lease_id": lease, "expected_version": 5, "summary": "done"}))
}

// TestTaskCountsStayExactAcrossProcesses writes tasks through two server
// processes sharing a file that holds the task counts: after each
// process's writes, the other's collab_workspace_status reports as many
// completed tasks as the rows hold, and the table matches count(*) for
// every status.
func TestTaskCountsStayExactAcrossProcesses(t *testing.T) {
	s := newSandbox(t)
	repo := differentialRepo(s)
	first := s.start()
	ws := str(ok(t, first, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "carol"}), "workspace.id")
	first.Close()
	giveTaskCounts(t, s.db)
	c := [2]*mcptest.Client{s.start(), s.start()}
	for i := 0; i < 6; i++ {
		taskLife(t, c[i%2], ws, "carol", fmt.Sprintf("t%d", i))
		if i == 2 {
			ok(t, c[i%2], "collab_task_create", map[string]any{"workspace_id": ws, "actor": "carol", "idempotency_key": "open", "task_id": "open", "title": "left open"})
		}
		countsMatchRows(t, c[1-i%2], s.db, ws, fmt.Sprintf("after task %d", i))
	}
}

// TestReferenceWritesKeepTheTaskCountsExact lets the reference 0.4.0 open
// a file holding the task counts, verify it, and create, claim, block and
// complete tasks on it: its writes go through the triggers, and our
// server's count afterwards equals count(*).
func TestReferenceWritesKeepTheTaskCountsExact(t *testing.T) {
	ref := referenceImplementation(t)
	s := newSandbox(t)
	repo := differentialRepo(s)
	ours := s.start()
	ws := str(ok(t, ours, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "carol"}), "workspace.id")
	taskLife(t, ours, ws, "carol", "ours")
	ours.Close()
	giveTaskCounts(t, s.db)
	c, err := mcptest.Start(ref.argv, s.env())
	if err != nil {
		t.Fatalf("the reference refused a file holding the task counts: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if got := ok(t, c, "collab_journal_verify", map[string]any{"workspace_id": ws}); got["chain_valid"] != true {
		t.Fatalf("the reference finds the chain invalid: %v", got)
	}
	for i := 0; i < 3; i++ {
		taskLife(t, c, ws, "dave", fmt.Sprintf("ref%d", i))
	}
	ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "dave", "idempotency_key": "ref-open", "task_id": "ref-open", "title": "left open"})
	c.Close()
	if n := queryInt(t, s.db, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'collab_task_counts%'"); n != 4 {
		t.Fatalf("after the reference's writes the file holds %d of the counts' table and triggers, want 4", n)
	}
	countsMatchRows(t, s.start(), s.db, ws, "after the reference's writes")
}
