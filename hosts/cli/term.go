// Package cli is a person's terminal as one more host of the collab core:
// the read commands (status, tail, tasks, show, reports, decisions,
// handoffs, sessions), the commands through which a person acts under the
// same rules as any agent (post, decide, review, task create|claim|renew|
// release|complete|handoff|recover, handoff offer|respond, whoami, logout), and the conventions they share: --json on every command, plain
// text when stdout is not a terminal, colour only on a terminal and never
// with NO_COLOR, usage errors exit 2.
package cli

import (
	"errors"
	"flag"
	"io"

	"github.com/agenttool/collab/hosts/command"
)

// Exit codes shared by every command (hosts/command states them once).
const (
	// ExitOK: the command did what was asked.
	ExitOK = command.ExitOK
	// ExitRefused: the store refused the action, or a check found a problem
	// (an invalid journal, a failed demo step).
	ExitRefused = command.ExitFailed
	// ExitUsage: bad flags or arguments, or nothing to work on (no database,
	// a database needing migration, an unknown workspace).
	ExitUsage = command.ExitUsage
)

// UsageExit maps a flag parsing error to the exit status: 0 for -h/--help
// (the usage was printed), 2 otherwise.
func UsageExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	return ExitUsage
}

// IsTerminal reports whether w is a terminal (command.IsTerminal).
func IsTerminal(w io.Writer) bool { return command.IsTerminal(w) }

// ColorFor reports whether output to w may carry colour (command.ColorFor).
func ColorFor(w io.Writer) bool { return command.ColorFor(w) }
