package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// everyCommand is each command and subcommand a person can type.
var everyCommand = [][]string{
	{"verify"}, {"doctor"}, {"host"}, {"host", "stage"},
	{"host", "install", "hermes"}, {"host", "uninstall", "hermes"},
	{"host", "install", "claude"}, {"host", "uninstall", "codex"},
	{"demo"}, {"search"}, {"guard"}, {"guard", "install"}, {"guard", "uninstall"}, {"guard", "status"},
	{"status"}, {"tail"}, {"tasks"}, {"show"}, {"reports"}, {"decisions"}, {"sessions"}, {"handoffs"},
	{"post"}, {"decide"}, {"review"}, {"handoff", "respond"}, {"whoami"}, {"logout"},
	{"serve"}, {"token", "add"}, {"token", "list"}, {"token", "revoke"}, {"web"}, {"peek"}, {"watch"},
}

func runArgs(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestHelpFlagsPrintUsageAndExitZeroEverywhere(t *testing.T) {
	for _, cmd := range everyCommand {
		for _, h := range []string{"-h", "--help"} {
			args := append(append([]string{}, cmd...), h)
			code, out, errOut := runArgs(args...)
			if code != 0 || !strings.HasPrefix(out, "usage: agenttool-collab-mcp "+cmd[0]) || errOut != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
			}
		}
		if len(cmd) == 1 || cmd[1] == "stage" {
			help := append([]string{"help"}, cmd...)
			code, out, _ := runArgs(help...)
			_, want, _ := runArgs(append(append([]string{}, cmd...), "--help")...)
			if code != 0 || out != want {
				t.Errorf("%v: exit %d, printed %q, want what --help prints", help, code, out)
			}
		}
	}
	if code, out, _ := runArgs("help"); code != 0 || !strings.Contains(out, "Usage:") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
	if code, _, errOut := runArgs("help", "nope"); code != 2 || !strings.Contains(errOut, `no command "nope"`) {
		t.Errorf("help nope: exit %d\n%s", code, errOut)
	}
}

func TestUnknownFlagsExitTwoWithTheUsage(t *testing.T) {
	for _, cmd := range everyCommand {
		args := append(append([]string{}, cmd...), "--no-such-flag")
		code, out, errOut := runArgs(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "usage: agenttool-collab-mcp") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestErrorsNameTheRealCause(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.sqlite")
	cases := []struct {
		args     []string
		code     int
		want     string
		mustNot  string
		jsonMode bool
	}{
		{[]string{"verify", "--db", missing}, 2, "no database at " + missing + " (from --db)", "AGENTOOL_COLLAB_DB", false},
		{[]string{"verify", "--db", dir}, 2, "is a directory, not a database file", "0600", false},
		{[]string{"verify", "--db", missing, "--json"}, 2, "no database at " + missing, "", true},
		{[]string{"doctor", "--plugin-root", filepath.Join(dir, "nope")}, 2, "--plugin-root " + filepath.Join(dir, "nope"), "", false},
		{[]string{"doctor", "--plugin-root", dir, "--json"}, 2, "holds neither .claude-plugin/plugin.json", "", true},
	}
	for _, c := range cases {
		code, out, errOut := runArgs(c.args...)
		msg := errOut
		if c.jsonMode {
			var doc struct{ Error string }
			if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Error == "" {
				t.Errorf("%v: stdout is not a JSON error (%v): %q", c.args, err, out)
			}
			msg = doc.Error
		}
		if code != c.code || !strings.Contains(msg, c.want) || (c.mustNot != "" && strings.Contains(msg, c.mustNot)) {
			t.Errorf("%v: exit %d, message %q; want exit %d naming %q", c.args, code, msg, c.code, c.want)
		}
	}
}
