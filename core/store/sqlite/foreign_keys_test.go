package sqlite

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
)

// orphanEvent copies an event into a workspace that does not exist.
const orphanEvent = `CREATE TEMP TABLE orphan AS SELECT * FROM events WHERE sequence = 1;
UPDATE orphan SET workspace_id = 'ws_gone', id = 'evt_orphan'; INSERT INTO events SELECT * FROM orphan;`

// TestOpenChecksForeignKeysAboveTheMarks opens real files whose rows were
// made to point nowhere with foreign keys off, and requires an open to
// refuse what it still checks (any row of a small file, a row above its
// table's recorded mark, an event of a missing workspace at any size),
// to accept an old row below the mark, which the full check on demand
// (QuickCheck) reports, and a small file never to gain the mark table.
func TestOpenChecksForeignKeysAboveTheMarks(t *testing.T) {
	const large = recordForeignKeysAfter + 44
	cases := []struct {
		name      string
		decisions int
		tamper    string // run with foreign keys off after a first open
		refused   bool
		marked    int64 // the decisions mark after the open (a refused open writes none); 0 for no table
		problems  bool  // the full check reports a row pointing nowhere
	}{
		{"a small clean file gains no table", 10, "", false, 0, false},
		{"a small file is checked in full", 10, "UPDATE decisions SET workspace_id = 'ws_gone' WHERE rowid = 1", true, 0, true},
		{"a large file records its marks", large, "", false, large, false},
		{"a new orphan above the mark is refused", large, insertDecision(large+1, "ws_gone"), true, large, true},
		{"an old orphan below the mark opens and the full check reports it", large,
			"UPDATE decisions SET workspace_id = 'ws_gone' WHERE rowid = 1", false, large, true},
		{"a mark beyond the rows sends the table to the full check", large,
			"UPDATE foreign_keys_checked SET checked_rowid = 1000000 WHERE table_name = 'decisions';" +
				"UPDATE decisions SET workspace_id = 'ws_gone' WHERE rowid = 1", true, 1000000, true},
		{"an event of a missing workspace is refused in a small file", 10, orphanEvent, true, 0, true},
		{"an event of a missing workspace is refused in a large file", large, orphanEvent, true, large, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			path := longJournal(t, 3)
			execRaw(t, path, insertDecisions(tc.decisions))
			openAndClose(t, path)
			if tc.tamper != "" {
				execRaw(t, path, tc.tamper)
			}
			db, err := Open(ctx, Options{Path: path})
			if tc.refused {
				if !collaberr.HasCode(err, collaberr.DatabaseForeignKeyFailure) {
					t.Fatalf("open = %v, want database_foreign_key_failure", err)
				}
				db, err = Open(ctx, Options{Path: path, ReadOnly: true})
			}
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer db.Close()
			problems, err := db.QuickCheck(ctx)
			if err != nil {
				t.Fatalf("full check: %v", err)
			}
			if (len(problems) > 0) != tc.problems {
				t.Fatalf("full check found %q, want problems: %v", problems, tc.problems)
			}
			if got := decisionsMark(t, path); got != tc.marked {
				t.Fatalf("decisions mark = %d, want %d", got, tc.marked)
			}
		})
	}
}

// insertDecisions writes n decisions of the test's workspace.
func insertDecisions(n int) string {
	return fmt.Sprintf(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < %d)
INSERT INTO decisions (id, workspace_id, topic, decision, recorded_by, recorded_at)
SELECT 'dec_' || i, 'ws_long', 'topic', 'decided', 'tester', '2026-01-01T00:00:00.000Z' FROM n`, n)
}

// insertDecision writes decision n of workspace.
func insertDecision(n int, workspace string) string {
	return fmt.Sprintf(`INSERT INTO decisions (id, workspace_id, topic, decision, recorded_by, recorded_at)
VALUES ('dec_%d', '%s', 'topic', 'decided', 'tester', '2026-01-01T00:00:00.000Z')`, n, workspace)
}

// decisionsMark is the recorded decisions mark, 0 when the file has no
// mark table.
func decisionsMark(t *testing.T, path string) int64 {
	t.Helper()
	raw := rawFile(t, path)
	has, err := tableExists(context.Background(), raw, ForeignKeysCheckedTable)
	if err != nil || !has {
		return 0
	}
	var mark int64
	if err := raw.QueryRow("SELECT checked_rowid FROM foreign_keys_checked WHERE table_name = 'decisions'").Scan(&mark); err != nil {
		t.Fatalf("read the decisions mark: %v", err)
	}
	return mark
}

// TestRowsAboveAMarkAreCheckedAsSQLiteChecksThem compares the check an
// open runs above a mark with SQLite's own check, on a composite key whose
// parent columns are implicit (the parent's primary key), a key naming its
// parent column, and rows with some key columns NULL (never checked).
func TestRowsAboveAMarkAreCheckedAsSQLiteChecksThem(t *testing.T) {
	cases := []struct {
		name   string
		row    string // the child row inserted with foreign keys off
		orphan bool
	}{
		{"both columns match a parent", "(1, 'w', 't1', 'r1')", false},
		{"the composite key matches no parent", "(1, 'w', 't9', 'r1')", true},
		{"one column of the composite key is NULL", "(1, 'w', NULL, 'r1')", false},
		{"the named parent column has no such value", "(1, 'w', 't1', 'r9')", true},
		{"the named key is NULL", "(1, 'w', 't1', NULL)", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			raw := rawFile(t, t.TempDir()+"/toy.sqlite")
			for _, stmt := range []string{
				"CREATE TABLE parent (ws TEXT NOT NULL, id TEXT NOT NULL, PRIMARY KEY (ws, id))",
				"CREATE TABLE refs (key TEXT PRIMARY KEY)",
				`CREATE TABLE child (n INTEGER PRIMARY KEY, ws TEXT, task TEXT, ref TEXT REFERENCES refs(key),
FOREIGN KEY (ws, task) REFERENCES parent)`,
				"INSERT INTO parent VALUES ('w', 't1')", "INSERT INTO refs VALUES ('r1')",
				"INSERT INTO child VALUES " + tc.row,
			} {
				if _, err := raw.ExecContext(ctx, stmt); err != nil {
					t.Fatalf("%s: %v", stmt, err)
				}
			}
			tables, err := readChildTables(ctx, raw)
			if err != nil || len(tables) != 1 || !tables[0].byRowid {
				t.Fatalf("child tables = %+v, %v; want child, checked by rowid", tables, err)
			}
			above, err := orphanAbove(ctx, raw, tables[0], 0)
			if err != nil {
				t.Fatal(err)
			}
			full, err := orphanInFull(ctx, raw, "child")
			if err != nil {
				t.Fatal(err)
			}
			if above != full || full != tc.orphan {
				t.Fatalf("the check above the mark says orphan=%v, SQLite's own check %v, want %v", above, full, tc.orphan)
			}
		})
	}
}
