package serve

import (
	"fmt"
	"io"
	"os"

	"github.com/agenttool/collab/core/place"
)

// firstRunHint tells a person who started the server by hand, on a
// terminal, what they are looking at: hosts launch it over pipes, so a
// terminal on stdin means nobody is about to speak JSON-RPC. It writes one
// line on stderr and nothing at all when stdin is not a terminal.
func firstRunHint(stdin io.Reader, stderr io.Writer, dbPath string) {
	if !isTerminal(stdin) {
		return
	}
	fmt.Fprintf(stderr, "agenttool-collab-mcp is an MCP server for a host (Claude Code, Codex, Hermes) to launch; it now waits for JSON-RPC on stdin (Ctrl-D or Ctrl-C ends it). Database: %s. To try it: agenttool-collab-mcp demo; help: agenttool-collab-mcp --help\n", place.Shown(dbPath))
}

// isTerminal reports whether r is a character device such as a terminal.
// Hosts start the server with pipes; /dev/null also counts, which only
// costs that caller one line on stderr.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
