package command

import (
	"io"
	"os"

	"github.com/agenttool/collab/core/place"
)

// IsTerminal reports whether w is a character device such as a terminal:
// commands print plain text everywhere else.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
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
