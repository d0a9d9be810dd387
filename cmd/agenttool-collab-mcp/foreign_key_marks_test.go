package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// TestOpenChecksForeignKeysFromTheMarks tampers, with foreign keys off,
// with copies of a journal whose first open recorded foreign key marks
// (foreign_keys_checked), and requires a server to refuse what an open
// still checks (a row above its table's mark, an event or mutation of a
// missing workspace) and to accept an old row made to point nowhere,
// which verify (the full check) then reports.
func TestOpenChecksForeignKeysFromTheMarks(t *testing.T) {
	v := newVerifiedJournal(t)
	mark := queryInt(t, v.path, "SELECT checked_rowid FROM foreign_keys_checked WHERE table_name = 'reports'")
	if mark == 0 {
		t.Fatal("the first open recorded no reports mark")
	}
	copyRow := func(table, set string, rowid int64) string {
		return fmt.Sprintf(`CREATE TEMP TABLE o AS SELECT * FROM %[1]s WHERE rowid = %[3]d; UPDATE o SET %[2]s;
INSERT INTO %[1]s SELECT * FROM o`, table, set, rowid)
	}
	cases := []struct {
		name   string
		tamper string
		// refused is whether the server refuses database_foreign_key_failure.
		refused bool
	}{
		{"a report above the mark pointing to no session", copyRow("reports", "id = 'rep_orphan', to_session_id = 'cs_gone'", mark), true},
		{"an event of a missing workspace", copyRow("events", "id = 'evt_orphan', workspace_id = 'ws_gone'", 1), true},
		{"a mutation of a missing workspace", copyRow("mutations", "workspace_id = 'ws_gone'", 1), true},
		{"an old report below the mark pointing to no session", fmt.Sprintf("UPDATE reports SET to_session_id = 'cs_gone' WHERE rowid = %d", mark/2), false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := v.copyTo(t)
			sqlExec(t, s.db, tc.tamper)
			c, err := mcptest.Start([]string{os.Args[0]}, s.env())
			if tc.refused {
				if err == nil {
					c.Close()
					t.Fatal("the server opened the tampered journal")
				}
				if !strings.Contains(err.Error(), "database_foreign_key_failure") {
					t.Fatalf("the refusal should name database_foreign_key_failure: %v", err)
				}
			} else {
				if err != nil {
					t.Fatalf("the server refused a row below the mark: %v", err)
				}
				c.Close()
			}
			out, code := s.runCommand(t, "verify")
			if code != 1 || !strings.Contains(out, "foreign key") {
				t.Fatalf("verify exited %d without reporting the foreign key:\n%s", code, out)
			}
		})
	}
}

// TestReferenceKeepsAFileWithForeignKeyMarks proves the foreign key mark
// table is one the reference tolerates: it opens a file holding marks and
// writes rows above them; this implementation then opens the file,
// checking the reference's rows, and verify's full check agrees.
func TestReferenceKeepsAFileWithForeignKeyMarks(t *testing.T) {
	ref := referenceImplementation(t)
	v := newVerifiedJournal(t)
	ws := v.f.WorkspaceID
	s := v.copyTo(t)
	mark := queryInt(t, s.db, "SELECT checked_rowid FROM foreign_keys_checked WHERE table_name = 'reports'")
	c, err := mcptest.Start(ref.argv, s.env())
	if err != nil {
		t.Fatalf("the reference refused a file holding foreign_keys_checked: %v", err)
	}
	ok(t, c, "collab_session_start", map[string]any{"root_path": v.f.Root, "actor": "reference"})
	for i := 0; i < 3; i++ {
		ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "reference",
			"idempotency_key": fmt.Sprintf("ref-%d", i), "title": "made by the reference", "path_scopes": []any{"docs/ref.md"}})
	}
	c.Close()
	if n := queryInt(t, s.db, "SELECT checked_rowid FROM foreign_keys_checked WHERE table_name = 'reports'"); n != mark {
		t.Fatalf("the reports mark moved to %d across the reference's run", n)
	}
	ours := s.start()
	ours.Close()
	if out, code := s.runCommand(t, "verify"); code != 0 {
		t.Fatalf("verify exited %d on the file the reference wrote:\n%s", code, out)
	}
}
