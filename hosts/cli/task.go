package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
)

// taskSubcommands is the task command's usage in one line, for a
// refusal; taskUsage is the screen --help shows.
const taskSubcommands = "task create|claim|renew|release|complete|handoff|recover ... (see --help)"

// taskScreen is what task --help prints, each line naming the program.
const taskScreen = `usage:
  {p} task create TITLE... [--id ID] [--path P]... [--depends TASK]... [--mode edit|read_only|coordination]
      [--policy reported|accepted] [--description TEXT | --stdin | --file F]
  {p} task claim TASK [--ttl SECONDS]
  {p} task renew TASK [--ttl SECONDS]
  {p} task release TASK [--summary TEXT]
  {p} task complete TASK --summary TEXT | --stdin | --file F [--evidence REF]... [--confidence C] [--limits TEXT]
  {p} task handoff offer TASK --to NAME --summary TEXT | --stdin | --file F [--ttl SECONDS]
  {p} task handoff respond HANDOFF --accept|--decline
  {p} task recover TASK --note TEXT [--action takeover|release|block] [--blocker TEXT] [--ttl SECONDS]
Each acts through your own session and takes [--as NAME] [--db FILE] [--root DIR | --workspace ID] [--json];
each has its own -h. handoff offer|respond is also spelt {p} handoff offer|respond.
`

// Task runs one of a person's task subcommands through the person's own
// session, under the same store rules as an agent's tool call. stdin is
// read only by --stdin.
func Task(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fmt.Fprint(stdout, strings.ReplaceAll(taskScreen, "{p}", ProgramName()))
			return ExitOK
		}
		return report(stderr, usageProblem("task needs a subcommand", taskSubcommands))
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "create":
		return taskCreate(ctx, rest, stdin, stdout, stderr)
	case "claim":
		return taskClaim(ctx, rest, stdout, stderr)
	case "renew":
		return taskRenew(ctx, rest, stdout, stderr)
	case "release":
		return taskRelease(ctx, rest, stdout, stderr)
	case "complete":
		return taskComplete(ctx, rest, stdin, stdout, stderr)
	case "handoff":
		return handoff(ctx, "task handoff", rest, stdin, stdout, stderr)
	case "recover":
		return taskRecover(ctx, rest, stdout, stderr)
	}
	return report(stderr, usageProblem("no task subcommand "+quoted(sub), taskSubcommands))
}

// quoted is s in double quotes, for naming what a person typed.
func quoted(s string) string { return `"` + s + `"` }

// listFlag is a repeatable string flag (--path a --path b).
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// listVar declares a repeatable flag on fs.
func listVar(fs *flag.FlagSet, name, usage string) *listFlag {
	l := &listFlag{}
	fs.Var(l, name, usage)
	return l
}
