package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/hermes"
	"github.com/agenttool/collab/hosts/plugin"
)

// TestFirstMistakesGetAShortAnswerThatNamesWhatWasAsked runs the real
// binary on the mistakes a first user makes: a database that is not there
// (named by --db or by AGENTOOL_COLLAB_DB), a task status no task can
// have, a command that does not exist. Each answer names what was asked
// for and what to do, in at most two lines, with a non-zero exit.
func TestFirstMistakesGetAShortAnswerThatNamesWhatWasAsked(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("first", map[string]string{"a.txt": "a\n"})
	startSession(t, s, repo, "alice") // a journal with one workspace
	missing := filepath.Join(s.root, "no such dir", "collab.sqlite")
	cases := []struct {
		name    string
		args    []string
		env     []string
		code    int
		want    []string
		mustNot []string
		lines   int
	}{
		{"web on a missing --db", []string{"web", "--db", missing, "--addr", "127.0.0.1:0"}, nil, 1,
			[]string{missing, "--db"}, []string{"AGENTOOL_COLLAB_DB"}, 2},
		{"search on a missing --db", []string{"search", "anything", "--db", missing}, nil, 1,
			[]string{missing, "--db"}, []string{"AGENTOOL_COLLAB_DB"}, 2},
		{"web on a missing AGENTOOL_COLLAB_DB", []string{"web", "--addr", "127.0.0.1:0"}, []string{"AGENTOOL_COLLAB_DB=" + missing}, 1,
			[]string{missing, "AGENTOOL_COLLAB_DB"}, nil, 2},
		{"search on a missing AGENTOOL_COLLAB_DB", []string{"search", "anything"}, []string{"AGENTOOL_COLLAB_DB=" + missing}, 1,
			[]string{missing, "AGENTOOL_COLLAB_DB"}, nil, 2},
		{"tasks with a status no task has", []string{"tasks", "--status", "bogus", "--root", repo}, nil, 2,
			[]string{`"bogus"`, "open, claimed, blocked, completed"}, []string{"no tasks"}, 2},
		{"an unknown command", []string{"frobnicate"}, nil, 2,
			[]string{`"frobnicate"`, "--help"}, []string{"Usage:"}, 1},
		{"a misspelt command", []string{"stauts"}, nil, 2,
			[]string{`"stauts"`, `did you mean "status"`}, []string{"Usage:"}, 1},
	}
	for _, c := range cases {
		cmd := exec.Command(os.Args[0], c.args...)
		cmd.Dir, cmd.Env = repo, s.env(c.env...)
		out, _ := cmd.CombinedOutput()
		text := strings.TrimSpace(string(out))
		code := cmd.ProcessState.ExitCode()
		bad := code != c.code || len(strings.Split(text, "\n")) > c.lines
		for _, w := range c.want {
			bad = bad || !strings.Contains(text, w)
		}
		for _, w := range c.mustNot {
			bad = bad || strings.Contains(text, w)
		}
		if bad {
			t.Errorf("%s: exit %d, want %d, at most %d line(s) naming %q and not %q; got:\n%s", c.name, code, c.code, c.lines, c.want, c.mustNot, text)
		}
	}
}

// TestDoctorNeverSaysAPathDiffersFromItself gives Hermes an entry whose
// database is the shell's, but written as a relative path: a real problem
// (Hermes resolves it in its own folder), which doctor used to word as
// "would open X instead of X".
func TestDoctorNeverSaysAPathDiffersFromItself(t *testing.T) {
	s := newSandbox(t)
	work := filepath.Join(s.root, "work")
	config := hermes.ParseConfig([]byte("model: x\n"))
	if _, err := config.SetServer(plugin.Server, hermes.Entry{Command: "/bin/server",
		Env: []hermes.Var{{Name: "AGENTOOL_COLLAB_DB", Value: "collab.sqlite"}}}); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(s.root, "home", ".hermes", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(work, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, config.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "doctor")
	cmd.Dir, cmd.Env = work, s.env("AGENTOOL_COLLAB_DB="+filepath.Join(work, "collab.sqlite"), "HERMES_HOME=", "CLAUDE_CONFIG_DIR=", "CODEX_HOME=")
	out, _ := cmd.CombinedOutput()
	same := regexp.MustCompile(`would open (\S+) instead of (\S+):`)
	for _, m := range same.FindAllStringSubmatch(string(out), -1) {
		if m[1] == m[2] {
			t.Errorf("doctor says a path differs from itself: %s", m[0])
		}
	}
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "hermes ("+cfg+")") || !strings.Contains(string(out), "make the setting absolute") {
		t.Errorf("doctor should name the Hermes entry and say to make its path absolute (exit %d):\n%s", cmd.ProcessState.ExitCode(), out)
	}
}
