package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/covertest"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/demo"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
	"github.com/agenttool/collab/hosts/program"
)

// TestDemoRunsTheWholeScript runs `demo --json --keep DIR` as a real
// process whose agents are real server processes of the same binary, and
// checks that every scripted step behaved, that the conflicting claim was
// refused with the overlap, and that the kept database is where it says.
func TestDemoRunsTheWholeScript(t *testing.T) {
	keep := filepath.Join(t.TempDir(), "kept")
	cmd := exec.Command(os.Args[0], "demo", "--json", "--keep", keep)
	cmd.Env = inherited(serveEnv + "=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("demo failed: %v\n%s", err, out)
	}
	var tr struct {
		OK       bool   `json:"ok"`
		Database string `json:"database"`
		Steps    []struct {
			Agent, Tool, Outcome string
			OK                   bool
		} `json:"steps"`
	}
	if err := json.Unmarshal(out, &tr); err != nil {
		t.Fatalf("--json output is not one JSON object: %v\n%s", err, out)
	}
	if !tr.OK {
		t.Fatalf("transcript not ok: %s", out)
	}
	seen := map[string]bool{}
	for _, s := range tr.Steps {
		if !s.OK {
			t.Errorf("step %s %s not ok: %s", s.Agent, s.Tool, s.Outcome)
		}
		seen[s.Tool+":"+s.Outcome] = true
	}
	for _, want := range []string{
		"collab_task_claim:path_scope_conflict", "collab_handoff_respond:ok", "collab_task_review:ok",
		"collab_next:ok", "collab_journal_verify:ok", "collab_decision_record:ok", "collab_report_append:ok",
	} {
		if !seen[want] {
			t.Errorf("transcript lacks %s", want)
		}
	}
	if _, err := os.Stat(tr.Database); err != nil || !strings.HasPrefix(tr.Database, keep) {
		t.Errorf("kept database %q: %v", tr.Database, err)
	}
}

// TestDemoNarrates checks the plain-text narrative a person sees: the
// refusal and its reason, and where to look afterwards; no colour off a TTY.
func TestDemoNarrates(t *testing.T) {
	cmd := exec.Command(os.Args[0], "demo")
	cmd.Env = inherited(serveEnv + "=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("demo failed: %v\n%s", err, out)
	}
	text := string(out)
	for _, want := range []string{"refused: ada holds rate-limiter", `["src/api/handlers.go","src/api"]`, " tail --db ", " status --db ", "Done in"} {
		if !strings.Contains(text, want) {
			t.Errorf("narrative lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "\x1b[") {
		t.Errorf("narrative carries ANSI colour though stdout is not a terminal")
	}
}

// TestDemoUsage: --help exits 0, an unknown flag exits 2, and a non-empty
// --keep directory is refused before anything runs.
func TestDemoUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{{[]string{"demo", "--help"}, 0}, {[]string{"demo", "--bogus"}, 2}} {
		var out, errb strings.Builder
		if got := run(t.Context(), tc.args, strings.NewReader(""), &out, &errb); got != tc.code {
			t.Errorf("%v: exit %d, want %d (%s)", tc.args, got, tc.code, errb.String())
		}
	}
}

// TestShortNameShowsPeopleHelp: started as "collab" without arguments the
// binary prints the people's commands and exits 0 instead of serving.
func TestShortNameShowsPeopleHelp(t *testing.T) {
	for _, tc := range []struct {
		argv0 string
		want  bool
	}{{"collab", true}, {"/usr/bin/collab", true}, {`C:\x\collab.exe`, true}, {"agenttool-collab-mcp", false}, {"collabx", false}} {
		if got := command.NameFor(tc.argv0) == command.ShortName; got != tc.want {
			t.Errorf("NameFor(%q) is collab = %v", tc.argv0, got)
		}
	}
	var b strings.Builder
	program.PrintPeopleUsage(&b)
	for _, cmd := range []string{"demo", "status", "tail", "tasks", "show", "reports", "decisions", "sessions", "post", "decide", "review", "task create", "task claim", "task complete", "task handoff offer", "task recover", "handoff respond", "whoami", "logout"} {
		if !strings.Contains(b.String(), "collab "+cmd) {
			t.Errorf("people's help lacks %q", cmd)
		}
	}
}

// TestDemoFailsWhenAStepMisbehaves points the demo's agents at an
// in-memory database, where collab_session_start cannot write a
// credential: the first step is refused, the run reports ErrScript and
// the transcript records the failed step.
func TestDemoFailsWhenAStepMisbehaves(t *testing.T) {
	tr, err := demo.Run(t.Context(), demo.Options{Server: []string{os.Args[0]},
		Env: append([]string{serveEnv + "=1", "AGENTOOL_COLLAB_DB=:memory:"}, covertest.Env()...)})
	if !errors.Is(err, demo.ErrScript) {
		t.Fatalf("err = %v, want ErrScript", err)
	}
	if tr.OK || len(tr.Steps) == 0 || tr.Steps[len(tr.Steps)-1].OK || !strings.Contains(tr.Steps[len(tr.Steps)-1].Outcome, "session_file_path_required") {
		t.Fatalf("transcript does not record the refused step: %+v", tr)
	}
}

// TestDemoEndsWithCommandsThatWorkAsPrinted runs the two commands the demo
// suggests, exactly as printed, through a shell: each must succeed and
// show the kept journal.
func TestDemoEndsWithCommandsThatWorkAsPrinted(t *testing.T) {
	keep := filepath.Join(t.TempDir(), "kept demo")
	cmd := exec.Command(os.Args[0], "demo", "--keep", keep)
	cmd.Env = inherited(serveEnv + "=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("demo failed: %v\n%s", err, out)
	}
	_, tail, ok := strings.Cut(string(out), "Look at it:\n")
	if !ok {
		t.Fatalf("the demo suggests no commands:\n%s", out)
	}
	lines := strings.Split(strings.TrimSpace(tail), "\n")
	if len(lines) != 2 {
		t.Fatalf("want two suggested commands, got %q", lines)
	}
	for _, line := range lines {
		sh := exec.Command("sh", "-c", strings.TrimSpace(line))
		sh.Env = inherited(serveEnv + "=1")
		got, err := sh.CombinedOutput()
		if err != nil || !strings.Contains(string(got), "rate-limiter") {
			t.Errorf("%s: %v\n%s", line, err, got)
		}
	}
}

// installedAsCollab copies this test binary to a directory of its own under
// the short name, as `go install ./cmd/...` leaves it (a copy, not a link:
// os.Executable resolves links).
func installedAsCollab(t *testing.T) string {
	t.Helper()
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	path := filepath.Join(t.TempDir(), "bin dir", "collab")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCollabStartedByAHostServesMCP: the short name without arguments and
// with stdin a pipe (how a host or the demo starts a server) serves MCP as
// the long name does; only a terminal gets the people's commands. Before,
// `collab demo` after `go install ./cmd/...` failed at its first agent, and
// a Hermes entry written by `collab host install hermes` started nothing.
func TestCollabStartedByAHostServesMCP(t *testing.T) {
	collab := installedAsCollab(t)
	s := newSandbox(t)
	c, err := mcptest.Start([]string{collab}, s.env())
	if err != nil {
		t.Fatalf("collab without arguments on a pipe does not serve MCP: %v", err)
	}
	defer c.Close()
	if tools, err := c.ListTools(); err != nil || len(tools) < 32 {
		t.Fatalf("tools/list: %d tools, %v", len(tools), err)
	}

	keep := filepath.Join(t.TempDir(), "kept demo")
	cmd := exec.Command(collab, "demo", "--keep", keep)
	cmd.Env = inherited(serveEnv + "=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("collab demo, installed as collab: %v\n%s", err, out)
	}
}
