package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// The conventions every subcommand follows, in one place:
//   - usage is "usage: agenttool-collab-mcp CMD ..." followed by the flags;
//   - -h/--help prints it on stdout and exits 0;
//   - an unknown flag or a wrong argument prints the problem and the usage
//     on stderr and exits 2;
//   - flags may come before or after positional arguments;
//   - with --json, an error is one JSON object {"error": "..."} on stdout
//     (the exit status is unchanged), otherwise "CMD: message" on stderr.

// usageError is a malformed command line: exit 2 with the usage.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// command is one subcommand's flag set and usage text.
type command struct {
	name  string // e.g. "verify" or "host stage"
	usage string // the synopsis lines after "usage: agenttool-collab-mcp "
	flags *flag.FlagSet
}

// newCommand starts a subcommand's flag set; define its flags on c.flags.
func newCommand(name, usage string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &command{name: name, usage: usage, flags: fs}
}

// printUsage writes the usage and the flag list.
func (c *command) printUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: agenttool-collab-mcp %s\n", c.usage)
	hasFlags := false
	c.flags.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nflags:")
		c.flags.SetOutput(w)
		c.flags.PrintDefaults()
		c.flags.SetOutput(io.Discard)
	}
}

// parse reads flags and positional arguments in any order and checks the
// positional count is within [min, max] (max < 0: no limit). When it
// returns done, the command is over and code is its exit status.
func (c *command) parse(args []string, min, max int, stdout, stderr io.Writer) (positional []string, code int, done bool) {
	for {
		err := c.flags.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			c.printUsage(stdout)
			return nil, 0, true
		}
		if err != nil {
			return nil, c.usageFailure(stderr, err.Error()), true
		}
		rest := c.flags.Args()
		if len(rest) == 0 {
			break
		}
		if rest[0] == "--" {
			positional = append(positional, rest[1:]...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	switch {
	case len(positional) < min:
		return nil, c.usageFailure(stderr, "missing argument"), true
	case max >= 0 && len(positional) > max:
		return nil, c.usageFailure(stderr, fmt.Sprintf("unexpected argument %q", positional[max])), true
	}
	return positional, 0, false
}

// usageFailure reports a malformed command line and returns 2.
func (c *command) usageFailure(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "%s: %s\n", c.name, msg)
	c.printUsage(stderr)
	return 2
}

// fail reports err the way the command's output mode asks and returns code.
func (c *command) fail(asJSON bool, stdout, stderr io.Writer, code int, err error) int {
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(map[string]string{"error": err.Error()})
		return code
	}
	fmt.Fprintf(stderr, "%s: %s\n", c.name, strings.TrimSpace(err.Error()))
	return code
}

// writeJSON prints v indented, for --json output.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
