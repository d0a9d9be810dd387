package program

import (
	"fmt"

	"github.com/agenttool/collab/hosts/command"
)

// unknownCommand is the one line an unknown command gets: what was typed,
// the nearest command when one is a slip away, and where the list is. The
// whole usage text would bury that line.
func unknownCommand(name string, cmds []command.Command) string {
	prog := command.ProgramName()
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.Name
	}
	hint := ""
	if near := command.Nearest(name, names); near != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", near)
	}
	return fmt.Sprintf("%s: unknown command %q%s; run '%s --help' for the list", prog, name, hint, prog)
}
