// Command agenttool-collab-mcp serves the collab coordination journal over
// MCP stdio when run without arguments; subcommands offer human tools.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is the release version, set at build time with
// -ldflags "-X main.version=<semver>".
var version = "0.0.0-dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run dispatches one invocation and returns the process exit status.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return serve(ctx, stdin, stdout, stderr)
	}
	switch args[0] {
	case "--version", "-version", "version":
		fmt.Fprintf(stdout, "agenttool-collab-mcp %s\n", version)
		return 0
	case "--help", "-help", "-h", "help":
		printUsage(stdout)
		return 0
	}
	if cmd, ok := subcommands[args[0]]; ok {
		return cmd(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "agenttool-collab-mcp: unknown command %q\n\n", args[0])
	printUsage(stderr)
	return 2
}

// subcommands maps each human-facing subcommand to its entry point.
// Each lives in a file of its own named after it.
var subcommands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) int{
	"verify": verifyCommand,
	"doctor": runDoctor,
	"host":   runHost,
	"guard":  runGuard,
	"peek":   runPeek,
	"watch":  runWatch,
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `agenttool-collab-mcp: local-first coordination journal for coding-agent sessions

Usage:
  agenttool-collab-mcp              serve MCP over stdio (how hosts launch it)
  agenttool-collab-mcp --version    print the version
  agenttool-collab-mcp --help       print this help
  agenttool-collab-mcp verify [--db FILE] [--json]
                                    check every journal of a database without changing it
  agenttool-collab-mcp doctor [--json] [--plugin-root DIR]
                                    show which database each host would open and whether
                                    they agree; exit 1 when something needs doing
  agenttool-collab-mcp host install|uninstall hermes [--profile P] [--hermes-home DIR] [--dry-run]
                                    add or remove the Hermes server entry and skill
  agenttool-collab-mcp host install|uninstall claude|codex
                                    print the Claude Code or Codex commands that do it
  agenttool-collab-mcp guard install|uninstall|status [--mode warn|block] [--pre-push]
                                    warn about (or block) commits over paths another session claims
  agenttool-collab-mcp peek [--session-file FILE] [--json] [--hook claude|codex]
                                    what is new for a session, without moving its cursor;
                                    exit 10 when something concerns it, 0 otherwise (fails open)
  agenttool-collab-mcp watch [--session-file FILE] [--json]
                                    print a line per event that concerns the session as it lands

Environment:
  AGENTOOL_COLLAB_DB                    database file (default: $XDG_DATA_HOME/agenttool/collab.sqlite)
  AGENTOOL_COLLAB_SESSION_FILE          resume this credential-bound session at startup
  AGENTOOL_COLLAB_ALLOW_CURSOR_RECOVERY set to 1 to start a resumed session in cursor recovery
  AGENTOOL_COLLAB_ANCHOR_LEDGER         anchor sidecar ledger read by collab_anchor_status
  AGENTOOL_COLLAB_SYNCHRONOUS           normal (default) or full: fsync every commit as well
  AGENTOOL_COLLAB_TOOLS                 tool profile: all (default), core, or a comma list of tool names
`)
}
