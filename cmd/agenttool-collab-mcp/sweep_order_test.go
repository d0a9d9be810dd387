package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// TestSweepJournalsLapsedOffersInReferenceOrder builds one database with
// the reference holding four pending offers whose deadlines have passed,
// copies it, lets each implementation sweep its own copy, and requires
// the same handoff.expired events in the same order. The offers' order by
// offer time differs from the reference's index order on purpose.
func TestSweepJournalsLapsedOffersInReferenceOrder(t *testing.T) {
	ref := referenceImplementation(t)
	sb := newSandbox(t)
	repo := differentialRepo(sb)
	c, err := mcptest.Start(ref.argv, sb.env())
	if err != nil {
		t.Fatal(err)
	}
	ws := str(ok(t, c, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "carol"}), "workspace.id")
	// Offered in this order, to these actors, lapsing at these seconds.
	offers := []struct {
		to      string
		expires int
	}{{"zed", 1}, {"amy", 4}, {"mia", 2}, {"amy", 3}}
	for i, o := range offers {
		id := fmt.Sprintf("task-%d", i)
		ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "carol", "idempotency_key": "c-" + id, "task_id": id, "title": id})
		lease := str(ok(t, c, "collab_task_claim", map[string]any{"workspace_id": ws, "actor": "carol", "idempotency_key": "l-" + id,
			"task_id": id, "expected_version": 1, "ttl_seconds": 3600}), "task.lease_id")
		ok(t, c, "collab_handoff_offer", map[string]any{"workspace_id": ws, "actor": "carol", "idempotency_key": "o-" + id,
			"task_id": id, "lease_id": lease, "expected_version": 2, "to_actor": o.to, "summary": "s"})
	}
	c.Close()
	db, err := sql.Open("sqlite", sb.db)
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range offers {
		if _, err := db.Exec("UPDATE handoffs SET expires_at = ? WHERE task_id = ?",
			fmt.Sprintf("2000-01-01T00:00:0%d.000Z", o.expires), fmt.Sprintf("task-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	data, err := os.ReadFile(sb.db)
	if err != nil {
		t.Fatal(err)
	}

	var orders [2][]string
	for i, impl := range []implementation{thisImplementation(), ref} {
		copySB := newSandbox(t)
		if err := os.MkdirAll(filepath.Dir(copySB.db), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(copySB.db, data, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := mcptest.Start(impl.argv, copySB.env())
		if err != nil {
			t.Fatal(err)
		}
		ok(t, s, "collab_next", map[string]any{"workspace_id": ws, "actor": "carol"})
		s.Close()
		orders[i] = expiredTasks(t, copySB.db)
	}
	// Index order: to_actor, then expires_at.
	want := []string{"task-3", "task-1", "task-2", "task-0"}
	if !slices.Equal(orders[1], want) {
		t.Fatalf("the reference swept in order %v, expected %v: the premise of this test is wrong", orders[1], want)
	}
	if !slices.Equal(orders[0], orders[1]) {
		t.Fatalf("collab journaled lapsed offers in order %v, the reference in %v", orders[0], orders[1])
	}
}

// expiredTasks lists the task of each handoff.expired event in journal order.
func expiredTasks(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT json_extract(payload_json, '$.task_id') FROM events WHERE type = 'handoff.expired' ORDER BY sequence")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}
