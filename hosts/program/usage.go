package program

import (
	"fmt"
	"io"
)

// usageHeader opens the program's usage, down to the bare invocation.
const usageHeader = `agenttool-collab-mcp: local-first coordination journal for coding-agent sessions

Usage:
  agenttool-collab-mcp              serve MCP over stdio (how hosts launch it)
`

// usageFooter closes the program's usage: the environment it reads.
const usageFooter = `
Environment:
  AGENTOOL_COLLAB_DB                    database file (default: $XDG_DATA_HOME/agenttool/collab.sqlite)
  AGENTOOL_COLLAB_SESSION_FILE          resume this credential-bound session at startup
  AGENTOOL_COLLAB_ALLOW_CURSOR_RECOVERY set to 1 to start a resumed session in cursor recovery
  AGENTOOL_COLLAB_ANCHOR_LEDGER         anchor sidecar ledger read by collab_anchor_status
  AGENTOOL_COLLAB_SYNCHRONOUS           normal (default) or full: fsync every commit as well
  AGENTOOL_COLLAB_TOOLS                 tool profile: all (default), core, or a comma list of tool names
`

// PrintUsage writes the program's usage: the header, each command's lines
// in table order, then the environment.
func PrintUsage(w io.Writer) {
	fmt.Fprint(w, usageHeader)
	for _, c := range Commands("") {
		fmt.Fprint(w, c.Usage)
	}
	fmt.Fprint(w, usageFooter)
}
