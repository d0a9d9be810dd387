package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
	"github.com/agenttool/collab/hosts/notice"
)

// wakeDeadline bounds each wait in the wake tests. The goal is 1 s from
// commit to line; the deadline is generous because the test machine is
// shared, and the measured figure is logged.
const wakeDeadline = 10 * time.Second

// wakePair is two bound sessions, alice and bob, on one repository.
type wakePair struct {
	s                  *sandbox
	alice, bob         *mcptest.Client
	ws, aliceID, bobID string
	bobFile            string
}

func newWakePair(t *testing.T) *wakePair {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	alice, a, _ := startSession(t, s, repo, "alice")
	bob, b, bobFile := startSession(t, s, repo, "bob")
	return &wakePair{s: s, alice: alice, bob: bob, ws: str(a, "workspace.id"), aliceID: str(a, "session.id"),
		bobID: str(b, "session.id"), bobFile: bobFile}
}

// offerToBob makes alice create and claim a task and offer it to bob.
func (w *wakePair) offerToBob(t *testing.T, id string) {
	ok(t, w.alice, "collab_task_create", map[string]any{"workspace_id": w.ws, "task_id": id, "idempotency_key": "c-" + id,
		"title": "task " + id, "work_mode": "coordination"})
	task := ok(t, w.alice, "collab_task_claim", map[string]any{"workspace_id": w.ws, "task_id": id, "idempotency_key": "k-" + id, "expected_version": 1})
	ok(t, w.alice, "collab_handoff_offer", map[string]any{"workspace_id": w.ws, "task_id": id, "lease_id": str(task, "task.lease_id"),
		"idempotency_key": "o-" + id, "expected_version": num(task, "task.version"), "to_session_id": w.bobID, "summary": "please finish " + id})
}

// bobCursor reads bob's persisted cursor straight from the database.
func (w *wakePair) bobCursor(t *testing.T) (journal.Anchor, int64) {
	t.Helper()
	st, err := backend.Open(context.Background(), backend.Options{Path: w.s.db, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sess, err := st.Session(context.Background(), w.bobID)
	if err != nil {
		t.Fatal(err)
	}
	return sess.Cursor, sess.CursorVersion
}

// peekAs runs `peek` in its own process and returns its exit status,
// stdout and stderr.
func peekAs(t *testing.T, s *sandbox, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"peek"}, args...)...)
	cmd.Env = s.env()
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

// stampedLine is one output line and when the test read it.
type stampedLine struct {
	text string
	at   time.Time
}

// startWatch runs `watch` for a credential file and returns its stdout
// lines once it reports that it is watching.
func startWatch(t *testing.T, s *sandbox, file string) (*exec.Cmd, <-chan stampedLine) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "watch", "--session-file", file)
	cmd.Env = s.env()
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan stampedLine, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- stampedLine{sc.Text(), time.Now()}
		}
		close(lines)
	}()
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			select {
			case ready <- sc.Text():
			default:
			}
		}
	}()
	select {
	case l := <-ready:
		if !strings.Contains(l, "watching from") {
			t.Fatalf("watch did not start: %s", l)
		}
	case <-time.After(wakeDeadline):
		t.Fatal("watch never said it was watching")
	}
	return cmd, lines
}

func TestWatchAndPeekSeeAHandoffWithoutMovingTheCursor(t *testing.T) {
	w := newWakePair(t)
	cursor, version := w.bobCursor(t)
	if code, out, errs := peekAs(t, w.s, "--session-file", w.bobFile); code != 0 || !strings.Contains(out, "unread") {
		t.Fatalf("peek before any offer: exit %d, %q %q", code, out, errs)
	}
	watch, lines := startWatch(t, w.s, w.bobFile)
	begin := time.Now()
	w.offerToBob(t, "t1")
	offered := time.Now()
	select {
	case l := <-lines:
		if !strings.Contains(l.text, "handoff of task t1 offered to you by alice") {
			t.Fatalf("watch line %q", l.text)
		}
		t.Logf("measured: watch line %v after the offer call returned (%v after it began)", l.at.Sub(offered), l.at.Sub(begin))
	case <-time.After(wakeDeadline):
		t.Fatal("no watch line for the offer")
	}
	code, out, errs := peekAs(t, w.s, "--session-file", w.bobFile, "--json")
	t.Logf("measured: peek answered %v after the offer call returned", time.Since(offered))
	var sum struct {
		Unread int64          `json:"unread_events"`
		Counts map[string]int `json:"counts"`
	}
	if code != notice.PeekNew || json.Unmarshal([]byte(out), &sum) != nil || sum.Counts["handoff_offered"] != 1 || sum.Unread == 0 {
		t.Fatalf("peek after the offer: exit %d, %q %q", code, out, errs)
	}
	if strings.Contains(out+errs, w.bobFile) {
		t.Fatal("peek named the credential file")
	}
	if c, v := w.bobCursor(t); c != cursor || v != version {
		t.Fatalf("bob's cursor moved: %+v v%d -> %+v v%d", cursor, version, c, v)
	}
	ok(t, w.bob, "collab_session_end", map[string]any{"reason": "done"})
	exited := make(chan error, 1)
	go func() { exited <- watch.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("watch exited with %v", err)
		}
	case <-time.After(wakeDeadline):
		t.Fatal("watch kept running after its session ended")
	}
}

func TestPeekFailsOpenAndNeverNamesTheCredential(t *testing.T) {
	s := newSandbox(t)
	missing := s.root + "/collab-sessions/nope.json"
	for _, args := range [][]string{{"--session-file", missing}, {"--session-file", missing, "--hook", "claude"}, {}} {
		code, out, errs := peekAs(t, s, args...)
		if code != 0 || out != "" || strings.Count(errs, "\n") != 1 || strings.Contains(errs, missing) {
			t.Errorf("peek %v: exit %d, stdout %q, stderr %q", args, code, out, errs)
		}
	}
	if code, _, _ := peekAs(t, s, "--bogus"); code != 2 {
		t.Errorf("unknown flag: exit %d, want 2", code)
	}
	if code, out, _ := peekAs(t, s, "-h"); code != 0 || !strings.Contains(out, "usage:") {
		t.Errorf("-h: exit %d", code)
	}
}

func TestPeekHookIsQuietUntilSomethingConcernsTheSession(t *testing.T) {
	w := newWakePair(t)
	if code, out, errs := peekAs(t, w.s, "--session-file", w.bobFile, "--hook", "claude"); code != 0 || out != "" {
		t.Fatalf("quiet hook: exit %d %q %q", code, out, errs)
	}
	w.offerToBob(t, "t1")
	code, out, _ := peekAs(t, w.s, "--session-file", w.bobFile, "--hook", "claude")
	var hook struct {
		Out struct {
			Event   string `json:"hookEventName"`
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &hook) != nil || !strings.Contains(hook.Out.Context, "1 handoff offered to you") {
		t.Fatalf("hook output: exit %d %q", code, out)
	}
	cred, _ := credfile.Read(w.bobFile)
	if strings.Contains(out, cred.Token) {
		t.Fatal("hook output carries the token")
	}
}

func TestWatchExitsWhenItsParentGoesAway(t *testing.T) {
	w := newWakePair(t)
	// sh starts watch in the background and says its pid; killing sh
	// orphans watch, which must notice and exit, closing its stdout.
	sh := exec.Command("sh", "-c", `"$0" watch --session-file "$1" & echo $!; wait`, os.Args[0], w.bobFile)
	sh.Env = w.s.env()
	// A pipe of our own: exec's StdoutPipe would be closed by sh.Wait, and
	// only watch's exit may close this one.
	out, in, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	diag, diagIn, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer diag.Close()
	sh.Stdout, sh.Stderr = in, diagIn
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	in.Close()
	diagIn.Close()
	sc := bufio.NewScanner(out)
	if !sc.Scan() {
		t.Fatal("sh did not start watch")
	}
	pid := strings.TrimSpace(sc.Text())
	// Kill sh only once watch is watching, so it started under sh.
	if ready := bufio.NewScanner(diag); !ready.Scan() || !strings.Contains(ready.Text(), "watching from") {
		t.Fatalf("watch did not start: %q", ready.Text())
	}
	sh.Process.Kill()
	sh.Wait()
	closed := make(chan struct{})
	go func() {
		for sc.Scan() {
		}
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(wakeDeadline):
		exec.Command("kill", pid).Run()
		t.Fatal("watch kept running after its parent was killed")
	}
}
