package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/historygen"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// verifiedJournal is a real journal file whose open recorded a verified
// head (journal_verified_heads) and that has events after that record: a
// generated history opened once by a server, then a session started on
// it. recorded is the sequence of the recorded event, head the journal's.
type verifiedJournal struct {
	f              historygen.Fixture
	path           string
	recorded, head int64
}

func newVerifiedJournal(t *testing.T) verifiedJournal {
	t.Helper()
	f, s := historySandbox(t, t.TempDir(), 400)
	first := s.start()
	first.Close()
	v := verifiedJournal{f: f, path: s.db}
	v.recorded = queryInt(t, s.db, "SELECT sequence FROM journal_verified_heads WHERE workspace_id = ?", f.WorkspaceID)
	if v.recorded != f.Head.Sequence {
		t.Fatalf("the first open recorded sequence %d, not the head %d", v.recorded, f.Head.Sequence)
	}
	c := s.start()
	ok(t, c, "collab_session_start", map[string]any{"root_path": f.Root, "actor": "after"})
	c.Close()
	v.head = queryInt(t, s.db, "SELECT event_head_sequence FROM workspaces WHERE id = ?", f.WorkspaceID)
	if v.head <= v.recorded {
		t.Fatalf("no event after the recorded head %d", v.recorded)
	}
	return v
}

// copyTo returns a sandbox holding a copy of the journal file.
func (v verifiedJournal) copyTo(t *testing.T) *sandbox {
	s := newSandbox(t)
	if err := os.MkdirAll(filepath.Dir(s.db), 0o700); err != nil {
		t.Fatal(err)
	}
	copyFile(t, v.path, s.db)
	return s
}

// TestOpenVerifiesFromTheRecordedHead tampers with copies of a journal
// whose opens recorded a verified head, and requires each open to refuse
// what it refused when it verified every journal from genesis (and a
// re-chained rewrite, which that could not see), except an old event
// edited in place without re-chaining: that one an open now accepts, and
// the full audits (collab_journal_verify, verify) report.
func TestOpenVerifiesFromTheRecordedHead(t *testing.T) {
	v := newVerifiedJournal(t)
	ws := v.f.WorkspaceID
	editActor := func(seq int64) string {
		return fmt.Sprintf("UPDATE events SET actor = actor || 'x' WHERE workspace_id = '%s' AND sequence = %d", ws, seq)
	}
	cases := []struct {
		name   string
		tamper func(t *testing.T, path string)
		// refusal is the code the open refuses with; "" when it opens.
		refusal string
		// auditValid is, for a journal that opens, what the full audits
		// say of its chain.
		auditValid bool
	}{
		{"an event after the recorded head edited", func(t *testing.T, p string) { sqlExec(t, p, editActor(v.head)) },
			"database_journal_invalid", false},
		{"the recorded event edited", func(t *testing.T, p string) { sqlExec(t, p, editActor(v.recorded)) },
			"database_journal_invalid", false},
		{"the recorded event edited with its hash rewritten", func(t *testing.T, p string) {
			sqlExec(t, p, editActor(v.recorded))
			rechain(t, p, ws, v.recorded, v.recorded, false)
		}, "database_journal_invalid", false},
		{"the journal truncated below the recorded head", func(t *testing.T, p string) {
			sqlExec(t, p, fmt.Sprintf("DELETE FROM events WHERE workspace_id = '%s' AND sequence > %d", ws, v.recorded-5))
		}, "database_journal_invalid", false},
		{"the journal re-chained from before the recorded head", func(t *testing.T, p string) {
			sqlExec(t, p, editActor(v.recorded-100))
			rechain(t, p, ws, v.recorded-100, v.head, true)
		}, "database_journal_invalid", false},
		// A record of another epoch anchors nothing: the journal is
		// verified from genesis, which (as before records, and as the
		// reference and verify do) finds the events' own chain intact.
		{"the workspace's epoch replaced", func(t *testing.T, p string) {
			sqlExec(t, p, fmt.Sprintf("UPDATE workspaces SET epoch_id = 'epoch_replaced' WHERE id = '%s'", ws))
		}, "", true},
		{"an old event edited in place, not re-chained", func(t *testing.T, p string) { sqlExec(t, p, editActor(5)) }, "", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := v.copyTo(t)
			tc.tamper(t, s.db)
			c, err := mcptest.Start([]string{os.Args[0]}, s.env())
			if tc.refusal != "" {
				if err == nil {
					c.Close()
					t.Fatal("the server opened the tampered journal")
				}
				if !strings.Contains(err.Error(), tc.refusal) {
					t.Fatalf("the refusal should name %s: %v", tc.refusal, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("the server refused a journal whose recorded head re-checks: %v", err)
			}
			t.Cleanup(func() { c.Close() })
			if got := ok(t, c, "collab_journal_verify", map[string]any{"workspace_id": ws}); got["chain_valid"] != tc.auditValid {
				t.Fatalf("collab_journal_verify should say chain_valid %v: %v", tc.auditValid, got)
			}
			want := map[bool]int{true: 0, false: 1}[tc.auditValid]
			if out, code := s.runCommand(t, "verify"); code != want {
				t.Fatalf("verify exited %d, not %d:\n%s", code, want, out)
			}
		})
	}
}

// rechain recomputes the hashes of events from..to of ws (each linking to
// the one before it), and the workspace head when moveHead is set: the
// rewrite someone with the file in hand makes to hide an edit.
func rechain(t *testing.T, path, ws string, from, to int64, moveHead bool) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var prev string
	if err := db.QueryRow("SELECT hash FROM events WHERE workspace_id = ? AND sequence = ?", ws, from-1).Scan(&prev); err != nil {
		t.Fatal(err)
	}
	var hasher journal.Hasher
	for seq := from; seq <= to; seq++ {
		e := journal.Event{WorkspaceID: ws, Sequence: seq}
		var payload string
		if err := db.QueryRow(`SELECT epoch_id, id, protocol, type, entity_id, actor, occurred_at, payload_json, session_id
FROM events WHERE workspace_id = ? AND sequence = ?`, ws, seq).Scan(&e.EpochID, &e.ID, &e.Protocol, &e.Type,
			&e.EntityID, &e.Actor, &e.OccurredAt, &payload, &e.SessionID); err != nil {
			t.Fatal(err)
		}
		e.PayloadJSON, e.PrevHash = []byte(payload), prev
		if e.Hash, err = hasher.Hash(&e); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec("UPDATE events SET prev_hash = ?, hash = ? WHERE workspace_id = ? AND sequence = ?",
			e.PrevHash, e.Hash, ws, seq); err != nil {
			t.Fatal(err)
		}
		prev = e.Hash
	}
	if moveHead {
		if _, err := db.Exec("UPDATE workspaces SET event_head_hash = ? WHERE id = ?", prev, ws); err != nil {
			t.Fatal(err)
		}
	}
}

func sqlExec(t *testing.T, path, stmt string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

func queryInt(t *testing.T, path, query string, args ...any) int64 {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int64
	if err := db.QueryRow(query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// TestReferenceKeepsAFileWithVerifiedHeads proves the verified head table
// is one the reference tolerates: it opens (verifying every journal) a
// file holding a record, verifies the chain valid and appends to it; this
// implementation then opens the file again, verifying from the record
// across the reference's events, and its full audit agrees.
func TestReferenceKeepsAFileWithVerifiedHeads(t *testing.T) {
	ref := referenceImplementation(t)
	v := newVerifiedJournal(t)
	ws := v.f.WorkspaceID
	s := v.copyTo(t)
	c, err := mcptest.Start(ref.argv, s.env())
	if err != nil {
		t.Fatalf("the reference refused a file holding journal_verified_heads: %v", err)
	}
	ok(t, c, "collab_session_start", map[string]any{"root_path": v.f.Root, "actor": "reference"})
	if got := ok(t, c, "collab_journal_verify", map[string]any{"workspace_id": ws}); got["chain_valid"] != true {
		t.Fatalf("the reference finds the chain invalid: %v", got)
	}
	for i := 0; i < 3; i++ {
		ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "reference",
			"idempotency_key": fmt.Sprintf("ref-%d", i), "title": "made by the reference", "path_scopes": []any{"docs/ref.md"}})
	}
	c.Close()
	head := queryInt(t, s.db, "SELECT event_head_sequence FROM workspaces WHERE id = ?", ws)
	if head <= v.head {
		t.Fatalf("the reference appended nothing (head %d)", head)
	}
	if n := queryInt(t, s.db, "SELECT sequence FROM journal_verified_heads WHERE workspace_id = ?", ws); n != v.recorded {
		t.Fatalf("the record moved to %d across the reference's run", n)
	}
	ours := s.start()
	if got := ok(t, ours, "collab_journal_verify", map[string]any{"workspace_id": ws}); got["chain_valid"] != true {
		t.Fatalf("the chain the reference extended does not verify: %v", got)
	}
}

// TestStatusChecksTheChainAfterTheRecordedHead runs a person's status on
// copies of a journal whose open recorded a verified head: status
// verifies only the events after that head and says from where, so an
// edit after it reads INVALID while an old event edited in place is left
// to verify, which status names.
func TestStatusChecksTheChainAfterTheRecordedHead(t *testing.T) {
	v := newVerifiedJournal(t)
	ws := v.f.WorkspaceID
	editActor := func(seq int64) string {
		return fmt.Sprintf("UPDATE events SET actor = actor || 'x' WHERE workspace_id = '%s' AND sequence = %d", ws, seq)
	}
	cases := []struct {
		name       string
		edit       string
		statusExit int
		shows      string
		verifyExit int
	}{
		{"untouched", "", 0, fmt.Sprintf("chain valid (checked after #%d; collab verify checks every event)", v.recorded), 0},
		{"an event after the recorded head edited", editActor(v.head), 1, "chain INVALID", 1},
		{"an old event edited in place, not re-chained", editActor(5), 0, fmt.Sprintf("checked after #%d", v.recorded), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := v.copyTo(t)
			if tc.edit != "" {
				sqlExec(t, s.db, tc.edit)
			}
			out, code := s.runCommand(t, "status", "--workspace", ws)
			if code != tc.statusExit || !strings.Contains(out, tc.shows) {
				t.Fatalf("status exited %d (want %d) and should show %q:\n%s", code, tc.statusExit, tc.shows, out)
			}
			if out, code := s.runCommand(t, "verify"); code != tc.verifyExit {
				t.Fatalf("verify exited %d, not %d:\n%s", code, tc.verifyExit, out)
			}
		})
	}
}
