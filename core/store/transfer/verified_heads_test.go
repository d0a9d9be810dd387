package transfer

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/store/sqlite"
)

// TestCopyLeavesTheVerifiedHeadsBehind requires a SQLite copy to carry no
// record of the heads the source's opens verified or of the rows whose
// foreign keys they checked (those describe the source file), and a
// replacing copy to clear the target's own, so that the copied journals
// are verified and checked in full on their first open in the target.
func TestCopyLeavesTheVerifiedHeadsBehind(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		replace bool
	}{
		{"into a new file", false},
		{"replacing a file with records", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			src := copyFixture(t, fixtureV040)
			addVerifiedHead(t, src)
			dst := filepath.Join(t.TempDir(), "copy.sqlite")
			if tc.replace {
				dst = copyFixture(t, fixtureV040)
				addVerifiedHead(t, dst)
			}
			if _, err := Copy(ctx, Options{From: src, To: dst, Replace: tc.replace}); err != nil {
				t.Fatal(err)
			}
			for _, table := range []string{sqlite.VerifiedHeadsTable, sqlite.ForeignKeysCheckedTable, sqlite.IndependenceFoldsTable} {
				if n := recordRows(t, dst, table); n != 0 {
					t.Fatalf("the copy holds %d rows of %s", n, table)
				}
			}
		})
	}
}

// addVerifiedHead records the head of every workspace of path, a reports
// mark and an (empty) independence fold, as a long journal's processes would.
func addVerifiedHead(t *testing.T, path string) {
	t.Helper()
	raw := openRaw(t, path)
	for _, ddl := range sqlite.VerifiedHeadsDDL {
		if _, err := raw.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := raw.Exec(`INSERT INTO journal_verified_heads (workspace_id, epoch_id, sequence, hash, verified_at)
SELECT id, epoch_id, event_head_sequence, event_head_hash, '2026-01-01T00:00:00.000Z' FROM workspaces`); err != nil {
		t.Fatal(err)
	}
	for _, ddl := range sqlite.ForeignKeysCheckedDDL {
		if _, err := raw.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := raw.Exec(`INSERT INTO foreign_keys_checked (table_name, checked_rowid, checked_at)
SELECT 'reports', coalesce(max(rowid), 0), '2026-01-01T00:00:00.000Z' FROM reports`); err != nil {
		t.Fatal(err)
	}
	for _, ddl := range sqlite.IndependenceFoldsDDL {
		if _, err := raw.Exec(ddl); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := raw.Exec(`INSERT INTO independence_folds (workspace_id, epoch_id, sequence, hash, fold_json, settled_json)
SELECT id, epoch_id, event_head_sequence, event_head_hash, '{"claim_events":0,"open_claims":[]}',
'{"claims":[],"independent_reviews":[]}' FROM workspaces`); err != nil {
		t.Fatal(err)
	}
}

// recordRows counts the rows of path's record table, 0 when it has no
// such table.
func recordRows(t *testing.T, path, table string) int {
	t.Helper()
	raw := openRaw(t, path)
	var tables int
	if err := raw.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = ?", table).Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables == 0 {
		return 0
	}
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM " + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func openRaw(t *testing.T, path string) *sql.DB {
	t.Helper()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}
