package program

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/hosts/command"
)

// help implements `help [COMMAND [SUBCOMMAND]]`: the program's usage, or
// the command's own, exactly as COMMAND --help prints it. help itself is
// not a topic.
func help(ctx context.Context, version string, s command.IO, topic []string) error {
	if len(topic) == 0 {
		PrintUsage(s.Stdout)
		return nil
	}
	c, ok := lookup(Commands(version), topic[0])
	if !ok || c.Name == "help" {
		fmt.Fprintf(s.Stderr, "help: no command %q\n\n", topic[0])
		PrintUsage(s.Stderr)
		return command.Exit(command.ExitUsage)
	}
	return c.Run(ctx, s, append(append([]string{}, topic[1:]...), "--help"))
}

// lookup is the command called name.
func lookup(cmds []command.Command, name string) (command.Command, bool) {
	for _, c := range cmds {
		if c.Name == name {
			return c, true
		}
	}
	return command.Command{}, false
}
