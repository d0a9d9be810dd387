package program

import (
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/command"
)

// TestUsageNamesTheProgramAsTyped: under each name every command line of
// the usage starts with that name; under the short name only the line
// saying how hosts launch the server keeps the server's name.
func TestUsageNamesTheProgramAsTyped(t *testing.T) {
	for _, name := range []string{command.ShortName, command.ServerName} {
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			printUsageAs(&b, name)
			commands := 0
			for _, line := range strings.Split(b.String(), "\n") {
				if !strings.HasPrefix(line, "  ") || strings.HasPrefix(line, "   ") || strings.HasPrefix(line, "  AGENTOOL_") {
					continue
				}
				word := strings.Fields(line)[0]
				if word != name && !(word == command.ServerName && strings.Contains(line, "how hosts launch it")) {
					t.Errorf("usage line names %q, not %q: %q", word, name, line)
				}
				commands++
			}
			if commands < len(Commands(""))/2 {
				t.Errorf("only %d command lines in the usage:\n%s", commands, b.String())
			}
		})
	}
}
