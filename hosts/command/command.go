// Package command is the one shape every subcommand of the binary has: a
// Command value run with its streams passed in, one mapping from what it
// returns to the process exit status, and one parser that lets flags come
// before or after positional arguments.
package command

import (
	"context"
	"io"
)

// IO is the streams a command reads and writes. A command touches no
// other standard stream, so a test can run it in process.
type IO struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Command is one subcommand: the word a person types after the program
// name, the lines the program's usage shows for it, and what it does.
type Command struct {
	// Name is what selects the command, e.g. "verify".
	Name string
	// Usage is the command's lines in the program's usage, each already
	// indented; "" when a neighbouring command's lines cover this one
	// (the people's read commands share one line).
	Usage string
	// Run does the command's work on the arguments after its name. Its
	// error decides the exit status through ExitCode.
	Run func(ctx context.Context, streams IO, args []string) error
}

// Func adapts a command written as a function that prints its own
// messages and returns its exit status.
func Func(f func(ctx context.Context, args []string, stdout, stderr io.Writer) int) func(context.Context, IO, []string) error {
	return func(ctx context.Context, streams IO, args []string) error {
		return Exit(f(ctx, args, streams.Stdout, streams.Stderr))
	}
}
