package command

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// The conventions a Parser gives a subcommand, in one place:
//   - usage is "usage: PROGRAM CMD ..." followed by the flags, PROGRAM the
//     name the person typed (ProgramName);
//   - -h/--help prints it on stdout and exits 0;
//   - an unknown flag or a wrong argument prints the problem and the usage
//     on stderr and exits 2;
//   - flags may come before or after positional arguments (Positional);
//   - with --json, an error is one JSON object {"error": "..."} on stdout
//     (the exit status is unchanged), otherwise "CMD: message" on stderr.

// Parser is one subcommand's flag set and usage text.
type Parser struct {
	name  string // e.g. "verify" or "host stage"
	usage string // the synopsis lines after "usage: PROGRAM "
	// Flags is where the command defines its flags.
	Flags *flag.FlagSet
}

// NewParser starts a subcommand's flag set; define its flags on Flags.
func NewParser(name, usage string) *Parser {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return &Parser{name: name, usage: usage, Flags: fs}
}

// Name is the command's name as its messages start.
func (c *Parser) Name() string { return c.name }

// PrintUsage writes the usage and the flag list.
func (c *Parser) PrintUsage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s %s\n", ProgramName(), c.usage)
	hasFlags := false
	c.Flags.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nflags:")
		c.Flags.SetOutput(w)
		c.Flags.PrintDefaults()
		c.Flags.SetOutput(io.Discard)
	}
}

// Parse reads flags and positional arguments in any order and checks the
// positional count is within [min, max] (max < 0: no limit). When it
// returns done, the command is over and code is its exit status.
func (c *Parser) Parse(args []string, min, max int, stdout, stderr io.Writer) (positional []string, code int, done bool) {
	positional, err := Positional(c.Flags, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.PrintUsage(stdout)
		return nil, ExitOK, true
	case err != nil:
		return nil, c.UsageFailure(stderr, err.Error()), true
	case len(positional) < min:
		return nil, c.UsageFailure(stderr, "missing argument"), true
	case max >= 0 && len(positional) > max:
		return nil, c.UsageFailure(stderr, fmt.Sprintf("unexpected argument %q", positional[max])), true
	}
	return positional, ExitOK, false
}

// UsageFailure reports a malformed command line and returns ExitUsage.
func (c *Parser) UsageFailure(stderr io.Writer, msg string) int {
	fmt.Fprintf(stderr, "%s: %s\n", c.name, msg)
	c.PrintUsage(stderr)
	return ExitUsage
}

// Fail reports err the way the command's output mode asks and returns code.
func (c *Parser) Fail(asJSON bool, stdout, stderr io.Writer, code int, err error) int {
	if asJSON {
		WriteJSON(stdout, map[string]string{"error": err.Error()})
		return code
	}
	fmt.Fprintf(stderr, "%s: %s\n", c.name, strings.TrimSpace(err.Error()))
	return code
}

// WriteJSON prints v indented, for --json output.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v) // the encoder's own error: callers print it as it is
}
