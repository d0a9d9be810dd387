package command

import (
	"io"
	"os"

	"github.com/agenttool/collab/core/place"
)

// IsTerminal reports whether w is a character device such as a terminal:
// commands print plain text everywhere else.
func IsTerminal(w io.Writer) bool {
	return isCharDevice(w)
}

// ReadsTerminal reports whether r is a terminal: a person typing, not a
// host piping messages.
func ReadsTerminal(r io.Reader) bool {
	return isCharDevice(r)
}

func isCharDevice(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// ColorFor reports whether output to w may carry ANSI colour: only on a
// terminal, and never when NO_COLOR is set to anything non-empty.
func ColorFor(w io.Writer) bool {
	return os.Getenv(place.EnvNoColor) == "" && IsTerminal(w)
}
