package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Journal text an agent chose: its actor label sets the window title and
// rings the bell, its report body writes the clipboard (OSC 52), clears
// the screen with ESC and with the 8-bit CSI U+009B, and reverses the
// line with a bidi override.
const (
	hostileLabel = "mal\x1b]0;pwned\x07lory\u009b2J"
	hostileBody  = "hostileword \x1b]52;c;ZXZpbA==\x07 then \x1b[2J\u009b2J\u202eexe.txt\nsecond line\tafter tab"
)

// rawControls are the bytes that must never reach the terminal raw: ESC,
// BEL, the 8-bit CSI byte (also the second byte of U+009B in UTF-8) and
// U+202E's encoding.
var rawControls = []string{"\x1b", "\x07", "\x9b", "\u202e"}

// checkEscaped fails when out holds a raw control, or does not show the
// hostile text escaped (so the test cannot pass by printing nothing).
func checkEscaped(t *testing.T, what, out string, shows ...string) {
	t.Helper()
	for _, c := range rawControls {
		if strings.Contains(out, c) {
			t.Errorf("%s printed a raw %q:\n%q", what, c, out)
		}
	}
	for _, s := range shows {
		if !strings.Contains(out, s) {
			t.Errorf("%s does not show %q:\n%q", what, s, out)
		}
	}
}

// The escaped forms the commands must print instead.
const (
	labelShown = `mal\x1b]0;pwned\x07lory\u009b2J`
	bodyShown  = `\x1b]52;c;ZXZpbA==\x07 then \x1b[2J\u009b2J\u202eexe.txt`
)

// runQuiet runs one command of the sandbox as its own process, stdout only.
func runQuiet(t *testing.T, s *sandbox, args ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = s.env("NO_COLOR=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if _, exited := err.(*exec.ExitError); !exited {
			t.Fatalf("%v: %v", args, err)
		}
	}
	return out.String()
}

// lineSource starts a long-running command and returns its stdout lines.
func lineSource(t *testing.T, s *sandbox, args ...string) <-chan string {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = s.env("NO_COLOR=")
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return lines
}

// collectUntil gathers lines until one contains want.
func collectUntil(t *testing.T, what string, lines <-chan string, want string) string {
	t.Helper()
	var got strings.Builder
	deadline := time.After(wakeDeadline)
	for {
		select {
		case l, open := <-lines:
			if !open {
				t.Fatalf("%s ended before printing %q:\n%q", what, want, got.String())
			}
			got.WriteString(l + "\n")
			if strings.Contains(l, want) {
				return got.String()
			}
		case <-deadline:
			t.Fatalf("%s never printed %q:\n%q", what, want, got.String())
		}
	}
}

// Every people's command that prints journal text escapes an agent's
// control characters: tail, tail -f, reports, sessions, status, handoffs,
// tasks, search, peek and watch, each a real process over a journal holding a
// hostile actor label and report body. The body keeps its line break and
// tab; the label does not.
func TestPeoplesCommandsNeverPrintAnAgentsControlCharacters(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	bob, b, bobFile := startSession(t, s, repo, "bob")
	ws := str(b, "workspace.id")
	_, stamped := startWatch(t, s, bobFile) // returns once watch has read its starting head
	watch := make(chan string, 64)
	go func() {
		for l := range stamped {
			watch <- l.text
		}
		close(watch)
	}()
	follow := lineSource(t, s, "tail", "-f", "--db", s.db, "--workspace", ws)
	collectUntil(t, "tail -f", follow, "session.joined")

	mallory := s.start()
	ok(t, mallory, "collab_session_start", map[string]any{"root_path": repo, "actor": hostileLabel})
	ok(t, mallory, "collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": "r1",
		"kind": "observation", "body": hostileBody, "to_session_id": str(b, "session.id")})
	ok(t, mallory, "collab_task_create", map[string]any{"workspace_id": ws, "task_id": "t1", "idempotency_key": "c1",
		"title": "title " + hostileLabel, "work_mode": "coordination"})
	task := ok(t, mallory, "collab_task_claim", map[string]any{"workspace_id": ws, "task_id": "t1", "idempotency_key": "k1", "expected_version": 1})
	ok(t, mallory, "collab_handoff_offer", map[string]any{"workspace_id": ws, "task_id": "t1", "lease_id": str(task, "task.lease_id"),
		"idempotency_key": "o1", "expected_version": num(task, "task.version"), "to_session_id": str(b, "session.id"), "summary": hostileBody})
	_ = bob

	checkEscaped(t, "tail -f", collectUntil(t, "tail -f", follow, "report."), labelShown)
	checkEscaped(t, "watch", collectUntil(t, "watch", watch, "report to you"), labelShown, `\x1b]52;c;ZXZpbA==\x07`)
	checkEscaped(t, "watch", collectUntil(t, "watch", watch, "handoff of task t1"), labelShown, `\x1b]52;c;ZXZpbA==\x07`)
	checkEscaped(t, "tail", runQuiet(t, s, "tail", "--db", s.db, "--workspace", ws), labelShown)
	reports := runQuiet(t, s, "reports", "--db", s.db, "--workspace", ws)
	checkEscaped(t, "reports", reports, labelShown, bodyShown+"\nsecond line\tafter tab")
	checkEscaped(t, "sessions", runQuiet(t, s, "sessions", "--db", s.db, "--workspace", ws), labelShown)
	checkEscaped(t, "status", runQuiet(t, s, "status", "--db", s.db, "--workspace", ws), labelShown)
	checkEscaped(t, "handoffs", runQuiet(t, s, "handoffs", "--db", s.db, "--workspace", ws), labelShown, bodyShown+"\nsecond line")
	checkEscaped(t, "tasks", runQuiet(t, s, "tasks", "--db", s.db, "--workspace", ws), "title "+labelShown)
	checkEscaped(t, "search", runQuiet(t, s, "search", "--db", s.db, "hostileword"), labelShown, `\x1b]52;c;ZXZpbA==\x07`)
	checkEscaped(t, "peek", runQuiet(t, s, "peek", "--session-file", bobFile), labelShown, `\x1b]52;c;ZXZpbA==\x07`)
	if json := runQuiet(t, s, "reports", "--db", s.db, "--workspace", ws, "--json"); !strings.Contains(json, `\u001b]52;c;ZXZpbA==\u0007`) {
		t.Errorf("reports --json is not the exact JSON of the body:\n%s", json)
	}
}
