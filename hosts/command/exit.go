package command

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/agenttool/collab/core/collaberr"
)

// The exit statuses every command shares. Some commands add their own:
// peek's "something is new", the guard's block status.
const (
	ExitOK     = 0
	ExitFailed = 1 // refused, a check failed, or the work could not be done
	ExitUsage  = 2 // a malformed command line, or nothing to work on
)

// Status is an exit status whose message, if any, the command has already
// printed.
type Status int

func (s Status) Error() string { return fmt.Sprintf("exit status %d", int(s)) }

// Exit is the error for a command that ends with code after printing what
// it had to say: nil for ExitOK.
func Exit(code int) error {
	if code == ExitOK {
		return nil
	}
	return Status(code)
}

// UsageError is a malformed command line: ExitUsage.
type UsageError struct{ Msg string }

func (e UsageError) Error() string { return e.Msg }

// ExitCode is the exit status err calls for: ExitOK for nil, the code of a
// Status, ExitUsage for a UsageError and ExitFailed for any other error.
func ExitCode(err error) int {
	var st Status
	var usage UsageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &st):
		return int(st)
	case errors.As(err, &usage):
		return ExitUsage
	}
	return ExitFailed
}

// Report prints err as "NAME: message" on stderr unless it is a Status
// (already reported) and returns the exit status it calls for.
func Report(stderr io.Writer, name string, err error) int {
	var st Status
	if err != nil && !errors.As(err, &st) {
		fmt.Fprintf(stderr, "%s: %s\n", name, strings.TrimSpace(err.Error()))
	}
	return ExitCode(err)
}

// Failure prints err as one "✖" line on stderr, a structured collab error
// as "message (code)", and returns ExitFailed.
func Failure(stderr io.Writer, err error) int {
	if ce, ok := collaberr.As(err); ok {
		fmt.Fprintf(stderr, "✖ %s (%s)\n", ce.Message, ce.Code)
	} else {
		fmt.Fprintf(stderr, "✖ %v\n", err)
	}
	return ExitFailed
}
