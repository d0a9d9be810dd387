package main

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/historygen"
	"github.com/agenttool/collab/core/store/sqlite"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// foldedJournal is a real journal in which a person's open claim on the
// topic "secret" withholds another session's report on it, followed by
// enough claims made and released that an append recorded the fold
// (independence_folds) past that claim. pat is the person's state
// directory, recorded the recorded fold's sequence.
type foldedJournal struct {
	f                historygen.Fixture
	s                *sandbox
	root, ws, pat    string
	recorded, secret int64
}

// secretText is the withheld report's text: no command of the claimant
// may print it while its claim is open.
const secretText = "BOB-FOUND-b0b5"

func newFoldedJournal(t *testing.T) foldedJournal {
	t.Helper()
	f, s := historySandbox(t, t.TempDir(), 400)
	if n := queryInt(t, s.db, "SELECT count(*) FROM sqlite_master WHERE name = ?", sqlite.IndependenceFoldsTable); n != 0 {
		t.Fatal("the generated history already holds the fold record")
	}
	j := foldedJournal{f: f, s: s, root: f.Root, ws: f.WorkspaceID, pat: t.TempDir()}
	j.cli(t, "independence", "claim", "--topic", "secret", "--as", "pat")
	j.secret = queryInt(t, s.db, "SELECT max(sequence) FROM events WHERE workspace_id = ? AND type = 'independence.claimed'", j.ws)
	in := inWorkspace(f.WorkspaceID)
	bob, _, _ := startSession(t, s, f.Root, "bob")
	ok(t, bob, "collab_report_append", in(map[string]any{"idempotency_key": "b", "kind": "observation",
		"body": "#secret " + secretText}))
	for i := 0; i < 40; i++ { // 80 claim events: one record, past the open claim
		c := ok(t, bob, "collab_independence_claim", in(map[string]any{"topic": fmt.Sprintf("t%d", i)}))
		ok(t, bob, "collab_independence_release", in(map[string]any{"claim_id": str(c, "claim.id"), "reason": "done"}))
	}
	bob.Close()
	j.recorded = queryInt(t, s.db, "SELECT sequence FROM independence_folds WHERE workspace_id = ?", f.WorkspaceID)
	if j.recorded <= j.secret {
		t.Fatalf("the fold was recorded at %d, not past the open claim at %d", j.recorded, j.secret)
	}
	return j
}

// cli runs one of pat's commands, a new process each.
func (j foldedJournal) cli(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, code := runCLI(t, j.pat, append(args, "--db", j.s.db, "--workspace", j.ws)...)
	if code != 0 {
		t.Fatalf("collab %v: exit %d: %s", args, code, errs)
	}
	return out
}

// listed is the number of claims a new server lists.
func (j foldedJournal) listed(t *testing.T) int {
	t.Helper()
	c, _, _ := startSession(t, j.s, j.root, "reader")
	defer c.Close()
	claims, _ := ok(t, c, "collab_independence_list", inWorkspace(j.ws)(nil))["claims"].([]any)
	return len(claims)
}

// TestANewProcessStartsFromTheRecordedFold tampers with the recorded
// fold of a real journal and reads it in new processes. Emptying the
// record's claims while its position stands makes a new process list
// only the claims journaled after that position: it started from the
// record and folded only the later claim events (and the full audit
// reports the record wrong). The same record with another hash or epoch
// at its position, or beyond the head, is ignored: every claim is listed
// again, the audit is clean, and the person's open claim, made before the
// record's position, still withholds in a new process.
func TestANewProcessStartsFromTheRecordedFold(t *testing.T) {
	j := newFoldedJournal(t)
	all := j.listed(t)
	if out := j.cli(t, "reports"); strings.Contains(out, secretText) || !strings.Contains(out, "[withheld: your independence claim") {
		t.Fatalf("a new process started from the record does not withhold the report under the open claim:\n%s", out)
	}
	later := int(queryInt(t, j.s.db, `SELECT count(*) FROM events WHERE workspace_id = ? AND sequence > ?
AND type = 'independence.claimed'`, j.ws, j.recorded))
	var fold, settled, hash string
	db, err := sql.Open("sqlite", j.s.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow("SELECT fold_json, settled_json, hash FROM independence_folds").Scan(&fold, &settled, &hash); err != nil {
		t.Fatal(err)
	}
	emptied := `UPDATE independence_folds SET fold_json = json_set(fold_json, '$.open_claims', json('[]')),
settled_json = json_set(settled_json, '$.claims', json('[]'))`
	cases := []struct {
		name   string
		tamper string
		// fromRecord: the new process used the (emptied) record.
		fromRecord bool
	}{
		{"the record's position stands", emptied, true},
		{"another hash at its position", emptied + ", hash = 'x' || hash", false},
		{"another epoch", emptied + ", epoch_id = 'epoch_other'", false},
		{"beyond the head", emptied + ", sequence = sequence + 100000", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := db.Exec("UPDATE independence_folds SET fold_json = ?, settled_json = ?, hash = ?, sequence = ?, epoch_id = "+
				"(SELECT epoch_id FROM workspaces WHERE id = ?)", fold, settled, hash, j.recorded, j.ws); err != nil {
				t.Fatal(err)
			}
			sqlExec(t, j.s.db, tc.tamper)
			got, want := j.listed(t), all
			if tc.fromRecord {
				want = later
			}
			if got != want {
				t.Fatalf("a new process lists %d claims, want %d (all %d, after the record %d)", got, want, all, later)
			}
			audit := exec.Command(os.Args[0], "verify", j.s.db)
			audit.Env = j.s.env()
			out, err := audit.CombinedOutput()
			if flagged := strings.Contains(string(out), "RECORDED FOLD WRONG"); flagged != tc.fromRecord || (err == nil) == tc.fromRecord {
				t.Fatalf("verify (err %v) of a record that a process %s:\n%s", err,
					map[bool]string{true: "used", false: "ignored"}[tc.fromRecord], out)
			}
			if !tc.fromRecord {
				if out := j.cli(t, "reports"); strings.Contains(out, secretText) {
					t.Fatalf("an ignored record let the withheld report through:\n%s", out)
				}
			}
		})
	}
}

// TestShortJournalsNeverGainTheFoldRecord makes claims in a real journal
// through servers and requires the file to keep exactly its tables (the
// reference's) while fewer claim events than are worth recording were
// ever folded, and to gain the fold record once more were.
func TestShortJournalsNeverGainTheFoldRecord(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name   string
		pairs  int // claims made and released
		record bool
	}{
		{"60 claim events", 30, false},
		{"70 claim events", 35, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, s := historySandbox(t, dir, 400)
			tables := func() string {
				return queryText(t, s.db, "SELECT group_concat(name, ' ') FROM (SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name)")
			}
			first, _, _ := startSession(t, s, f.Root, "first") // the tables a working process leaves
			first.Close()
			before := tables()
			c, _, _ := startSession(t, s, f.Root, "claimant")
			in := inWorkspace(f.WorkspaceID)
			for i := 0; i < tc.pairs; i++ {
				claim := ok(t, c, "collab_independence_claim", in(map[string]any{"topic": fmt.Sprintf("t%d", i)}))
				ok(t, c, "collab_independence_release", in(map[string]any{"claim_id": str(claim, "claim.id"), "reason": "done"}))
			}
			ok(t, c, "collab_next", in(map[string]any{"event_limit": 10}))
			ok(t, c, "collab_report_append", in(map[string]any{"idempotency_key": "last", "kind": "observation", "body": "an append"}))
			c.Close()
			after := tables()
			if has := strings.Contains(after, sqlite.IndependenceFoldsTable); has != tc.record {
				t.Fatalf("after %d claim pairs the file's tables are %q (before: %q)", tc.pairs, after, before)
			}
			if !tc.record && after != before {
				t.Fatalf("the file's tables changed from %q to %q", before, after)
			}
		})
	}
}

// TestReferenceKeepsAFileWithTheFoldRecord proves the fold record is a
// table the reference tolerates: it opens a file holding one and appends
// to it; this implementation then starts from the record across the
// reference's events, lists exactly the journal's claims, and its full
// audit finds the record equal to a fresh fold.
func TestReferenceKeepsAFileWithTheFoldRecord(t *testing.T) {
	ref := referenceImplementation(t)
	j := newFoldedJournal(t)
	rc, err := mcptest.Start(ref.argv, j.s.env())
	if err != nil {
		t.Fatalf("the reference refused a file holding %s: %v", sqlite.IndependenceFoldsTable, err)
	}
	ok(t, rc, "collab_session_start", map[string]any{"root_path": j.root, "actor": "reference"})
	before := queryInt(t, j.s.db, "SELECT event_head_sequence FROM workspaces WHERE id = ?", j.ws)
	for i := 0; i < 3; i++ {
		ok(t, rc, "collab_task_create", map[string]any{"workspace_id": j.ws, "actor": "reference",
			"idempotency_key": fmt.Sprintf("ref-%d", i), "title": "made by the reference", "path_scopes": []any{"docs/ref.md"}})
	}
	rc.Close()
	if after := queryInt(t, j.s.db, "SELECT event_head_sequence FROM workspaces WHERE id = ?", j.ws); after <= before {
		t.Fatalf("the reference appended nothing (head %d)", after)
	}
	if n := queryInt(t, j.s.db, "SELECT sequence FROM independence_folds WHERE workspace_id = ?", j.ws); n != j.recorded {
		t.Fatalf("the record moved to %d across the reference's run", n)
	}
	c := j.s.start()
	ok(t, c, "collab_session_start", map[string]any{"root_path": j.root, "actor": "after-reference"})
	ok(t, c, "collab_independence_claim", inWorkspace(j.ws)(map[string]any{"topic": "after-reference"}))
	c.Close()
	requireListedAsJournaled(t, j.s, j.f)
	if out := j.cli(t, "reports"); strings.Contains(out, secretText) {
		t.Fatalf("after the reference's run the withheld report shows:\n%s", out)
	}
	audit := exec.Command(os.Args[0], "verify", j.s.db)
	audit.Env = j.s.env()
	if out, err := audit.CombinedOutput(); err != nil {
		t.Fatalf("verify after the reference's run: %v\n%s", err, out)
	}
}
