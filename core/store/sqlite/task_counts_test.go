package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// countsFile is a file with tasks of several statuses in two workspaces,
// written as the reference writes them, and the raw SQL that wrote them.
func countsFile(t *testing.T) (*DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "collab.sqlite")
	db, err := Open(context.Background(), Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	raw := rawFile(t, path)
	for _, ws := range []string{"ws_a", "ws_b"} {
		rawExec(t, raw, `INSERT INTO workspaces (id, epoch_id, root_path, name, created_at, event_head_sequence, event_head_hash)
VALUES (?, 'epoch', ?, ?, '2026-01-01T00:00:00.000Z', 0, '')`, ws, "/"+ws, ws)
		for i, status := range []string{"open", "claimed", "completed", "completed", "blocked", "completed"} {
			rawExec(t, raw, `INSERT INTO tasks (id, workspace_id, title, status, dependencies_json, path_scopes_json, version,
created_at, updated_at) VALUES (?, ?, 't', ?, '[]', '[]', 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
				fmt.Sprintf("task_%d", i), ws, status)
		}
	}
	return db, path
}

func rawExec(t *testing.T, raw *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := raw.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

// countsHeld reads what the file holds of the counts.
func countsHeld(t *testing.T, raw *sql.DB) countsState {
	t.Helper()
	objects, err := schemaObjects(context.Background(), raw, taskCountsNames())
	if err != nil {
		t.Fatal(err)
	}
	return countsOf(objects)
}

// rawWrites are task writes as any writer makes them (the reference's
// statements, a copy's deletes): creates, claims, completions, a review
// accepted, one sent back for changes, a block, a move between
// workspaces and deletes.
var rawWrites = []string{
	`INSERT INTO tasks (id, workspace_id, title, status, dependencies_json, path_scopes_json, version, created_at, updated_at)
VALUES ('task_new', 'ws_a', 't', 'open', '[]', '[]', 1, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z')`,
	"UPDATE tasks SET status = 'claimed', assignee = 'x', version = version + 1 WHERE id = 'task_new'",
	"UPDATE tasks SET latest_progress = 'half', status = 'claimed' WHERE id = 'task_new'",
	"UPDATE tasks SET status = 'completed', review_status = 'pending' WHERE id = 'task_new'",
	"UPDATE tasks SET review_status = 'accepted' WHERE id = 'task_new'",
	"UPDATE tasks SET status = 'claimed', review_status = 'changes_requested' WHERE id = 'task_2' AND workspace_id = 'ws_a'",
	"UPDATE tasks SET status = 'blocked' WHERE id = 'task_0' AND workspace_id = 'ws_b'",
	"UPDATE tasks SET workspace_id = 'ws_b', id = 'task_moved' WHERE id = 'task_3' AND workspace_id = 'ws_a'",
	"DELETE FROM tasks WHERE id = 'task_5' AND workspace_id = 'ws_b'",
}

// TestTaskCountsStayExactForEveryWriter gives a file the counts and then
// writes its tasks with raw SQL, as another process (the reference, a
// copy) would: after every write, each count CountTasks reads from the
// table equals count(*).
func TestTaskCountsStayExactForEveryWriter(t *testing.T) {
	db, path := countsFile(t)
	if err := db.ensureTaskCounts(context.Background(), nil, 1); err != nil {
		t.Fatal(err)
	}
	raw := rawFile(t, path)
	if !db.taskCounts || countsHeld(t, raw) != countsTrusted {
		t.Fatal("a file past the threshold did not gain trusted task counts")
	}
	countsAgree(t, db, "after the fill")
	for _, w := range rawWrites {
		rawExec(t, raw, w)
		countsAgree(t, db, w)
	}
	// The table itself holds what count(*) says: CountTasks read it.
	rawExec(t, raw, "UPDATE collab_task_counts SET n = n + 100 WHERE workspace_id = 'ws_a' AND status = 'open'")
	if err := db.Read(context.Background(), func(tx *Tx) error {
		n, err := tx.CountTasks(context.Background(), "ws_a", store.TaskOpen)
		if err == nil && n < 100 {
			t.Errorf("CountTasks = %d: it did not read the count table", n)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// TestTaskCountsWaitForTheirThreshold: a file with fewer completed tasks
// than the threshold gains neither the table nor a trigger (its schema
// stays the reference's), and counts by reading the rows.
func TestTaskCountsWaitForTheirThreshold(t *testing.T) {
	db, path := countsFile(t)
	if err := db.ensureTaskCounts(context.Background(), nil, 7); err != nil { // the file holds 6
		t.Fatal(err)
	}
	if db.taskCounts || countsHeld(t, rawFile(t, path)) != countsAbsent {
		t.Fatal("a file below the threshold gained task counts")
	}
	countsAgree(t, db, "below the threshold")
	// A fresh file's open adds nothing either.
	objects, err := schemaObjects(context.Background(), db.read, taskCountsNames())
	if err != nil || len(objects) != 0 {
		t.Fatalf("a small file holds %v (%v)", objects, err)
	}
}

// TestStaleTaskCountsAreNotTrusted breaks the counts' triggers in ways a
// writer could (dropping one, altering one, rebuilding tasks, dropping the
// table) after skewing the table: a process already trusting them reads
// count(*) instead, and the next open rebuilds them exact, or, for a
// short file, removes them.
func TestStaleTaskCountsAreNotTrusted(t *testing.T) {
	breaks := []struct {
		name  string
		stmts []string
	}{
		{"a trigger dropped", []string{"DROP TRIGGER collab_task_counts_update"}},
		{"a trigger altered", []string{"DROP TRIGGER collab_task_counts_insert",
			"CREATE TRIGGER collab_task_counts_insert AFTER INSERT ON tasks BEGIN SELECT 1; END"}},
		{"every trigger dropped", []string{"DROP TRIGGER collab_task_counts_insert", "DROP TRIGGER collab_task_counts_update",
			"DROP TRIGGER collab_task_counts_delete"}},
	}
	for _, b := range breaks {
		for _, long := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/long=%v", b.name, long), func(t *testing.T) {
				ctx := context.Background()
				db, path := countsFile(t)
				if err := db.ensureTaskCounts(ctx, nil, 1); err != nil {
					t.Fatal(err)
				}
				raw := rawFile(t, path)
				rawExec(t, raw, "UPDATE collab_task_counts SET n = n + 100")
				for _, stmt := range b.stmts {
					rawExec(t, raw, stmt)
				}
				for _, w := range rawWrites {
					rawExec(t, raw, w)
				}
				countsAgree(t, db, "a process trusting the counts before they broke")
				// What the next open does (Open's own threshold aside).
				after := 1 // the file holds 6 completed tasks
				if !long {
					after = 100
				}
				objects, err := schemaObjects(ctx, db.write, append(indexNames(longFileIndexes), taskCountsNames()...))
				if err != nil {
					t.Fatal(err)
				}
				if err := db.ensureTaskCounts(ctx, objects, after); err != nil {
					t.Fatal(err)
				}
				again := db
				want := map[bool]countsState{true: countsTrusted, false: countsAbsent}[long]
				if got := countsHeld(t, raw); got != want || again.taskCounts != long {
					t.Fatalf("after the open the counts are %v (trusted %v), want %v", got, again.taskCounts, want)
				}
				countsAgree(t, again, "after the open")
			})
		}
	}
}

// TestTaskCountsTriggersAreStoredAsWritten: SQLite stores each trigger's
// text as written, which is what an open compares to trust the counts.
func TestTaskCountsTriggersAreStoredAsWritten(t *testing.T) {
	db, path := countsFile(t)
	if err := db.ensureTaskCounts(context.Background(), nil, 0); err != nil {
		t.Fatal(err)
	}
	objects, err := schemaObjects(context.Background(), rawFile(t, path), taskCountsNames())
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range taskCountsTriggers {
		if objects[tr.name] != tr.ddl {
			t.Errorf("%s is stored as %q", tr.name, objects[tr.name])
		}
	}
}

// countsAgree requires every count CountTasks reads to be the rows' own.
func countsAgree(t *testing.T, db *DB, label string) {
	t.Helper()
	ctx := context.Background()
	err := db.Read(ctx, func(tx *Tx) error {
		for _, ws := range []string{"ws_a", "ws_b", "ws_none"} {
			for _, status := range []store.TaskStatus{store.TaskOpen, store.TaskClaimed, store.TaskCompleted, store.TaskBlocked} {
				got, err := tx.CountTasks(ctx, ws, status)
				if err != nil {
					return err
				}
				var want int
				if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM tasks WHERE workspace_id = ? AND status = ?", ws, string(status)).Scan(&want); err != nil {
					return err
				}
				if got != want {
					t.Errorf("%s: CountTasks(%s, %s) = %d, count(*) = %d", label, ws, status, got, want)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadOnlyStoresReadTheTaskCounts: a read-only store (a person's
// status, the web view) reads the counts a writing open left, and counts
// the rows of a file without them.
func TestReadOnlyStoresReadTheTaskCounts(t *testing.T) {
	for _, kept := range []bool{true, false} {
		t.Run(fmt.Sprintf("kept=%v", kept), func(t *testing.T) {
			db, path := countsFile(t)
			if kept {
				if err := db.ensureTaskCounts(context.Background(), nil, 1); err != nil {
					t.Fatal(err)
				}
				rawExec(t, rawFile(t, path), "UPDATE collab_task_counts SET n = n + 100 WHERE workspace_id = 'ws_a' AND status = 'open'")
			}
			ro, err := Open(context.Background(), Options{Path: path, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer ro.Close()
			if ro.taskCounts != kept {
				t.Fatalf("a read-only store trusts the counts: %v, want %v", ro.taskCounts, kept)
			}
			if err := ro.Read(context.Background(), func(tx *Tx) error {
				n, err := tx.CountTasks(context.Background(), "ws_a", store.TaskOpen)
				if want := map[bool]int{true: 101, false: 1}[kept]; err == nil && n != want {
					t.Errorf("CountTasks = %d, want %d (from the table when kept)", n, want)
				}
				return err
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
