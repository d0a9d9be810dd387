package program

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/command"
)

// TestTableIsTheOneList: every command has a unique name and a Run, and a
// command the usage shows on a line of its own is named on that line.
func TestTableIsTheOneList(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range Commands("") {
		if c.Name == "" || c.Run == nil || seen[c.Name] {
			t.Errorf("command %q: empty name, no Run, or named twice", c.Name)
		}
		seen[c.Name] = true
		if c.Usage != "" && c.Name != "help" && !strings.Contains(c.Usage, "agenttool-collab-mcp "+c.Name) {
			t.Errorf("command %q: usage lines do not name it: %q", c.Name, c.Usage)
		}
	}
}

func TestDispatchReadsTheTable(t *testing.T) {
	cases := []struct {
		args       []string
		code       int
		out, inErr string
	}{
		{[]string{"stauts"}, 2, "", `unknown command "stauts" (did you mean "status"?)`},
		{[]string{"hepl"}, 2, "", `(did you mean "help"?)`},
		{[]string{"zzzzzz"}, 2, "", `unknown command "zzzzzz"; run`},
		{[]string{"help", "help"}, 2, "", `help: no command "help"`},
		{[]string{"help"}, 0, "Environment:", ""},
		{[]string{"--version"}, 0, "agenttool-collab-mcp 1.2.3\n", ""},
		{[]string{"help", "verify"}, 0, "usage: agenttool-collab-mcp verify", ""},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), "1.2.3", c.args, command.IO{Stdout: &out, Stderr: &errOut})
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(errOut.String(), c.inErr) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				c.args, code, out.String(), errOut.String(), c.code, c.out, c.inErr)
		}
	}
}
