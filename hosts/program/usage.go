package program

import (
	"fmt"
	"io"
	"strings"

	"github.com/agenttool/collab/hosts/command"
)

// usageHeader opens the program's usage, down to the bare invocation.
const usageHeader = `agenttool-collab-mcp: local-first coordination journal for coding-agent sessions

Usage:
  agenttool-collab-mcp              serve MCP over stdio (how hosts launch it)
`

// shortUsageHeader opens the usage under the short name, where the bare
// invocation prints the people's commands and the server keeps its name.
const shortUsageHeader = `collab: local-first coordination journal for coding-agent sessions

Usage:
  collab                            print the people's commands
  agenttool-collab-mcp              serve MCP over stdio (how hosts launch it; the same binary)
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

// PrintUsage writes the program's usage under the name it was run as
// (command.ProgramName): the header, each command's lines in table order,
// then the environment.
func PrintUsage(w io.Writer) { printUsageAs(w, command.ProgramName()) }

// printUsageAs writes the usage with every command line naming the
// program name, as a person would type it.
func printUsageAs(w io.Writer, name string) {
	header := usageHeader
	if name == command.ShortName {
		header = shortUsageHeader
	}
	fmt.Fprint(w, header)
	for _, c := range Commands("") {
		fmt.Fprint(w, strings.ReplaceAll(c.Usage, "  "+command.ServerName+" ", "  "+name+" "))
	}
	fmt.Fprint(w, usageFooter)
}
