//go:build linux

package main

import (
	"crypto/sha256"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/stress"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// TestKillNineNeverLeavesAHalfAppliedMutation kills a server with SIGKILL
// at random moments — during startup, resume, session start and end,
// appends, task changes, cursor acknowledgements — round after round
// (COLLAB_STRESS sizes it: CI 10 rounds, full 60; COLLAB_CRASH_ROUNDS names
// an exact count). After every kill the database opens and verifies in the next
// process, no receipt lacks its event, no event lacks its row change,
// every acknowledged write is journalled exactly once (the in-flight one
// is replayed with its key in the next process), and every credential file
// is either in step with its session or in one of the lagging states that
// the resume path repairs (counted and logged). A kill during the very
// first startup can land before the schema exists; such a round is
// counted, and the next server must create the schema.
func TestKillNineNeverLeavesAHalfAppliedMutation(t *testing.T) {
	rounds := stress.N(t, crashRoundsEnv, crashRounds)
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"src/a.go": "package a\n"})
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	cr := newCrashRun(t, s, repo, seed)
	var drift credentialDrift
	for n := 0; n < rounds; n++ {
		cr.round(n)
		if why := notYetCreated(s.db); why != "" {
			// Nothing can have been acknowledged before the schema
			// exists; the next server must create it (its round fails
			// otherwise), and the checks run once it has.
			if acked := len(cr.w.sh.ledger.writes); acked != 0 {
				t.Fatalf("round %d: %d writes were acknowledged but the database %s", n, acked, why)
			}
			cr.recount(cr.phase + " before the first migration committed")
			continue
		}
		db := openDB(t, s.db)
		requireStructuralInvariants(t, db)
		d, bad, err := credentialViolations(db, s.db)
		if err != nil {
			t.Fatal(err)
		}
		for _, msg := range bad {
			t.Errorf("round %d: credential file %s", n, msg)
		}
		drift.accumulate(d)
		db.Close()
		if t.Failed() {
			t.Fatalf("round %d (kill while %s) left the database inconsistent", n, cr.phase)
		}
	}
	requireNoFailures(t, cr.w.sh.book)
	requireVerifiedJournal(t, s, cr.w.sh.ws)
	db := openDB(t, s.db)
	requireStructuralInvariants(t, db)
	cr.w.sh.ledger.requireEachExactlyOnce(t, db)
	t.Logf("%d kills landed in: %s", rounds, cr.landings())
	t.Logf("%d acknowledged writes; %d resumes needed a cursor reset; credential drift: %s",
		len(cr.w.sh.ledger.writes), cr.recoveries, drift)
}

// TestFullDiskGivesClearErrorsWithoutCorruption lets the database grow
// into a file-size wall (see fileSizeLimitEnv) while a session appends
// reports. The write that hits it must come back as a coded error naming
// the storage failure, not a hang, crash or success; later writes fail the
// same way while reads keep working; nothing of a failed write is stored;
// and once space is back the database opens, verifies, and the failed
// write succeeds exactly once when retried with its key.
func TestFullDiskGivesClearErrorsWithoutCorruption(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", nil)
	sh := &stressShared{ledger: &ackLedger{}, book: newOutcomeBook()}
	c, r, cred := startSession(t, s, repo, "filler")
	sh.ws = str(r, "workspace.id")
	c.Close()
	limit := largestFile(t, filepath.Dir(s.db)) + 192<<10
	full := s.start("AGENTOOL_COLLAB_SESSION_FILE="+cred, fmt.Sprintf("%s=%d", fileSizeLimitEnv, limit))
	w := newStressWorker(0, full, str(r, "session.id"), sh, 1)
	failed := fillUntilFull(t, w)
	requireStorageError(t, failed)
	if again := call(t, full, "collab_report_append", reportArgs(sh.ws, "after-full", 6000)); !again.IsError {
		t.Fatalf("a write after the disk filled succeeded: %s", again.Raw)
	}
	if v := ok(t, full, "collab_journal_verify", map[string]any{"workspace_id": sh.ws}); v["chain_valid"] != true {
		t.Fatalf("reads on a full disk see a broken chain: %v", v)
	}
	ok(t, full, "collab_workspace_status", map[string]any{"workspace_id": sh.ws})
	if code := full.Close(); code != 0 {
		t.Fatalf("the server exited %d after the disk filled: %s", code, full.Stderr())
	}
	if n := countRows(t, s.db, "SELECT count(*) FROM mutations WHERE idempotency_key IN ('full', 'after-full')"); n != 0 {
		t.Fatalf("%d failed writes left a receipt", n)
	}
	roomy := s.start("AGENTOOL_COLLAB_SESSION_FILE=" + cred)
	w.c = roomy
	if _, ok := w.mutate("collab_report_append", reportArgs(sh.ws, "full", 6000)); !ok {
		t.Fatalf("retrying the failed write once space is back: %s", sh.book.summary())
	}
	requireNoFailures(t, sh.book)
	requireVerifiedJournal(t, s, sh.ws)
	db := openDB(t, s.db)
	requireStructuralInvariants(t, db)
	sh.ledger.requireEachExactlyOnce(t, db)
}

// fillUntilFull appends large reports until one fails and returns it.
func fillUntilFull(t *testing.T, w *stressWorker) mcptest.Result {
	t.Helper()
	for i := 0; i < 1000; i++ {
		r := call(t, w.c, "collab_report_append", reportArgs(w.sh.ws, fmt.Sprintf("fill-%d", i), 6000))
		if r.IsError {
			return r
		}
		w.sh.ledger.add(ackedWrite{typ: "report.posted", entity: str(r.Structured, "report.id")})
	}
	t.Fatal("1000 large appends never hit the file-size limit")
	return mcptest.Result{}
}

func reportArgs(ws, key string, size int) map[string]any {
	return map[string]any{"workspace_id": ws, "idempotency_key": key, "kind": "observation",
		"body": strings.Repeat("full disk test ", size/15)}
}

// requireStorageError accepts a coded error whose message names the
// storage failure.
func requireStorageError(t *testing.T, r mcptest.Result) {
	t.Helper()
	msg := strings.ToLower(str(r.Structured, "message"))
	if r.Code() == "" || !(strings.Contains(msg, "disk") || strings.Contains(msg, "full") || strings.Contains(msg, "i/o")) {
		t.Fatalf("the write that filled the disk did not fail clearly: %s", r.Raw)
	}
	t.Logf("full disk surfaces as %s: %s", r.Code(), str(r.Structured, "message"))
}

// largestFile returns the size of the largest file in dir.
func largestFile(t *testing.T, dir string) int64 {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var most int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			most = max(most, info.Size())
		}
	}
	return most
}

// TestReadOnlyDatabaseRefusesWritesClearly starts a server whose database
// directory is a read-only mount while another server keeps the WAL open,
// so the file can be read but not written. Writes must fail with a coded
// error that says the database is read-only, reads must keep working, and
// nothing of a refused write may be stored.
func TestReadOnlyDatabaseRefusesWritesClearly(t *testing.T) {
	if !privateMounts() {
		t.Skip("needs root with unshare to mount a directory read-only for one process")
	}
	s := newSandbox(t)
	writer := s.start()
	ws := str(ok(t, writer, "collab_workspace_open", map[string]any{"root_path": s.repo("main", nil), "actor": "a"}), "workspace.id")
	task := map[string]any{"workspace_id": ws, "actor": "a", "idempotency_key": "before", "title": "written before"}
	ok(t, writer, "collab_task_create", task)
	c, err := startWithPrivateMount(s, filepath.Dir(s.db), true)
	if err != nil {
		t.Fatalf("a server could not open a readable database on a read-only mount: %v", err)
	}
	task["idempotency_key"], task["title"] = "after", "written after"
	r := call(t, c, "collab_task_create", task)
	msg := strings.ToLower(str(r.Structured, "message"))
	if r.Code() == "" || !strings.Contains(msg, "readonly") && !strings.Contains(msg, "read-only") {
		t.Fatalf("a write to a read-only database did not fail clearly: %s", r.Raw)
	}
	t.Logf("read-only database surfaces as %s: %s", r.Code(), str(r.Structured, "message"))
	if l := ok(t, c, "collab_task_list", map[string]any{"workspace_id": ws}); len(get(l, "tasks").([]any)) != 1 {
		t.Fatalf("reads on a read-only database are wrong: %v", l)
	}
	if v := ok(t, c, "collab_journal_verify", map[string]any{"workspace_id": ws}); v["chain_valid"] != true {
		t.Fatalf("the read-only server sees a broken chain: %v", v)
	}
	if code := c.Close(); code != 0 {
		t.Fatalf("the read-only server exited %d: %s", code, c.Stderr())
	}
	writer.Close()
	if n := countRows(t, s.db, "SELECT count(*) FROM mutations WHERE idempotency_key = 'after'"); n != 0 {
		t.Fatal("the refused write left a receipt")
	}
	requireVerifiedJournal(t, s, ws)
	requireStructuralInvariants(t, openDB(t, s.db))
}

// TestServerRefusesToStartOnAReadOnlyDatabase starts a server whose
// database directory is read-only (a private read-only mount as root,
// mode 0500 otherwise) and holds no WAL, so SQLite cannot even read it.
// It must exit with one clear line on stderr and leave the file byte for
// byte as it was.
func TestServerRefusesToStartOnAReadOnlyDatabase(t *testing.T) {
	s := newSandbox(t)
	first := s.start()
	ws := str(ok(t, first, "collab_workspace_open", map[string]any{"root_path": s.repo("main", nil), "actor": "a"}), "workspace.id")
	first.Close() // the last clean close checkpoints and removes the WAL
	dir := filepath.Dir(s.db)
	before := fileDigest(t, s.db)
	var err error
	var c *mcptest.Client
	switch {
	case privateMounts():
		c, err = startWithPrivateMount(s, dir, true)
	case os.Geteuid() != 0:
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		c, err = mcptest.Start([]string{os.Args[0]}, s.env())
		os.Chmod(dir, 0o700)
	default:
		t.Skip("root without private mounts cannot make a directory read-only")
	}
	if err == nil {
		c.Close()
		t.Fatal("a server started on a read-only database directory")
	}
	text := strings.ToLower(err.Error())
	if !strings.Contains(text, "✖") || !(strings.Contains(text, "read-only") || strings.Contains(text, "readonly") ||
		strings.Contains(text, "unable to open database")) {
		t.Fatalf("the startup refusal does not say what is wrong: %v", err)
	}
	t.Logf("startup on a read-only database: %v", err)
	if after := fileDigest(t, s.db); after != before {
		t.Fatal("the refused start changed the database file")
	}
	requireVerifiedJournal(t, s, ws)
}

// fileDigest is the SHA-256 of a file's bytes.
func fileDigest(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// notYetCreated says why the database at path has no schema to inspect
// yet, or returns "" when its first migration committed. A first server
// killed early leaves no file, an empty one, or a hot rollback journal of
// its migration (or of its switch to WAL) that only a writer may roll
// back; every later server opens each of them.
func notYetCreated(path string) string {
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return "file was never created"
	}
	if info, err := os.Stat(path + "-journal"); err == nil && info.Size() > 0 {
		return "has a hot journal of its creation"
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return ""
	}
	defer db.Close()
	var tables int
	if err := db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'workspaces'").Scan(&tables); err == nil && tables == 0 {
		return "has no schema"
	}
	return ""
}
