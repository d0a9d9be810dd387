package main

import (
	"database/sql"
	"strings"
	"testing"
)

// eventCount counts every event of every workspace in the database at db.
func eventCount(t *testing.T, db string) int {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRow("SELECT count(*) FROM events").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestAPersonsCommandsAppendOnlyWhatTheyChange counts the events a real
// journal (the demo's server processes wrote it) gains from each of a
// person's commands: every read-only command, text and --json, before and
// after the person has a session, adds none; a refused or malformed write
// adds none; the first write adds the session's start and the write
// itself, and every later one only its own event (no session.resumed).
func TestAPersonsCommandsAppendOnlyWhatTheyChange(t *testing.T) {
	db, state := keptDemo(t)
	reads := [][]string{
		{"status"}, {"tail"}, {"tail", "--kind", "task"}, {"tasks"}, {"show", "rate-limiter"}, {"reports"},
		{"decisions"}, {"sessions"}, {"handoffs", "--all"}, {"whoami"}, {"search", "rate"},
	}
	readAll := func(phase string) {
		for _, args := range reads {
			for _, form := range [][]string{nil, {"--json"}} {
				run := append(append(append([]string{}, args...), form...), "--db", db)
				before := eventCount(t, db)
				runCLI(t, state, run...)
				if after := eventCount(t, db); after != before {
					t.Errorf("%s: `%s` appended %d events", phase, strings.Join(run, " "), after-before)
				}
			}
		}
	}
	readAll("without a session")
	writes := []struct {
		args  []string
		exit  int
		added int
	}{
		{[]string{"post", "first word", "--as", "pat"}, 0, 2}, // session.joined, report.posted
		{[]string{"post", "second word"}, 0, 1},
		{[]string{"decide", "release day", "Fridays are out"}, 0, 1},
		{[]string{"review", "no-such-task", "--accept"}, 1, 0},
		{[]string{"review", "rate-limiter", "--accept"}, 1, 0}, // already accepted
		{[]string{"handoff", "respond", "handoff_none", "--accept"}, 1, 0},
		{[]string{"post"}, 2, 0},
		{[]string{"post", "to nobody", "--to", "session_none"}, 1, 0},
	}
	for _, w := range writes {
		before := eventCount(t, db)
		_, errs, code := runCLI(t, state, append(w.args, "--db", db)...)
		if code != w.exit {
			t.Fatalf("`%s`: exit %d, want %d: %s", strings.Join(w.args, " "), code, w.exit, errs)
		}
		if added := eventCount(t, db) - before; added != w.added {
			t.Errorf("`%s` appended %d events, want %d", strings.Join(w.args, " "), added, w.added)
		}
	}
	readAll("with a session")
	out, _, _ := runCLI(t, state, "tail", "--db", db, "--actor", "pat")
	if strings.Contains(out, "session.resumed") {
		t.Errorf("a person's commands resumed the session:\n%s", out)
	}
	if !strings.Contains(out, "report.posted") || !strings.Contains(out, "observation: second word") {
		t.Errorf("tail does not show what the person posted:\n%s", out)
	}
	out, _, _ = runCLI(t, state, "tail", "--db", db, "--kind", "task.accepted")
	if !strings.Contains(out, "Add a rate limiter to the API (rate-limiter): Looks right; burst test passes.") {
		t.Errorf("tail does not show the task's title and the review's summary:\n%s", out)
	}
}
