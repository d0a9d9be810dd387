package transfer

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store/sqlite"
)

// TestCopyLeavesTheTaskCountsBehind: a copy never carries the source's
// task counts (they count the source's rows; here they are skewed, so a
// copied one would show), and a target that holds counts of its own has
// them kept exact by its triggers through the copy's deletes and inserts.
func TestCopyLeavesTheTaskCountsBehind(t *testing.T) {
	ctx := context.Background()
	for _, replace := range []bool{false, true} {
		t.Run(map[bool]string{false: "into a new file", true: "replacing a file with counts"}[replace], func(t *testing.T) {
			src := copyFixture(t, fixtureV040)
			// The source differs from the target's rows: one task blocked.
			rawExecAll(t, src, `BEGIN; INSERT INTO v2_write_guard VALUES ('test', 1);
UPDATE tasks SET status = 'blocked' WHERE rowid = (SELECT min(rowid) FROM tasks WHERE status != 'blocked');
DELETE FROM v2_write_guard; COMMIT`)
			giveCounts(t, src)
			rawExecAll(t, src, "UPDATE collab_task_counts SET n = n + 100")
			dst := filepath.Join(t.TempDir(), "copy.sqlite")
			if replace {
				dst = copyFixture(t, fixtureV040)
				giveCounts(t, dst)
			}
			if _, err := Copy(ctx, Options{From: src, To: dst, Replace: replace}); err != nil {
				t.Fatal(err)
			}
			if !replace {
				if n := recordRows(t, dst, sqlite.TaskCountsTable); n != 0 {
					t.Fatalf("the copy holds %d rows of %s", n, sqlite.TaskCountsTable)
				}
				return
			}
			var wrong int
			if err := openRaw(t, dst).QueryRow(`SELECT count(*) FROM (
  SELECT workspace_id, status, count(*) FROM tasks GROUP BY workspace_id, status
  EXCEPT SELECT workspace_id, status, n FROM collab_task_counts WHERE n != 0)`).Scan(&wrong); err != nil {
				t.Fatal(err)
			}
			var rows int
			if err := openRaw(t, dst).QueryRow("SELECT count(*) FROM collab_task_counts WHERE n != 0").Scan(&rows); err != nil {
				t.Fatal(err)
			}
			var groups int
			if err := openRaw(t, dst).QueryRow("SELECT count(*) FROM (SELECT DISTINCT workspace_id, status FROM tasks)").Scan(&groups); err != nil {
				t.Fatal(err)
			}
			if wrong != 0 || rows != groups {
				t.Fatalf("after the copy %d of the target's task counts differ from its rows (%d counted, %d groups)", wrong, rows, groups)
			}
		})
	}
}

// giveCounts gives path the task counts, as an open of a long file does.
func giveCounts(t *testing.T, path string) {
	t.Helper()
	rawExecAll(t, path, "BEGIN IMMEDIATE; "+strings.Join(sqlite.TaskCountsDDL, "; ")+"; COMMIT")
}

func rawExecAll(t *testing.T, path, stmts string) {
	t.Helper()
	if _, err := openRaw(t, path).Exec(stmts); err != nil {
		t.Fatalf("%s: %v", stmts, err)
	}
}
