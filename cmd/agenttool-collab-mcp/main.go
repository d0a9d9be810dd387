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

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	var code int
	if invokedAsCollab(os.Args[0]) && len(os.Args) == 1 {
		printPeopleUsage(os.Stdout)
	} else {
		code = profiled(os.Getenv, os.Stderr, func() int { return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr) })
	}
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
		fmt.Fprintf(stdout, "agenttool-collab-mcp %s\n", appVersion())
		return 0
	case "--help", "-help", "-h":
		printUsage(stdout)
		return 0
	case "help":
		return helpCommand(ctx, args[1:], stdout, stderr)
	}
	if cmd, ok := subcommands[args[0]]; ok {
		return cmd(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintln(stderr, unknownCommand(args[0]))
	return 2
}

// subcommands maps each human-facing subcommand to its entry point.
// Each lives in a file of its own named after it.
var subcommands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) int{
	"verify": verifyCommand,
	"copy":   copyCommand,
	"doctor": runDoctor,
	"host":   runHost,
	"guard":  runGuard,
	"search": searchCommand,
	"demo":   demoCommand,
	"serve":  serveCommand,
	"token":  tokenCommand,
	"web":    webCommand,
	"peek":   runPeek,
	"watch":  runWatch,
	"push":   runPush,
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `agenttool-collab-mcp: local-first coordination journal for coding-agent sessions

Usage:
  agenttool-collab-mcp              serve MCP over stdio (how hosts launch it)
  agenttool-collab-mcp serve [--http HOST:PORT] [--tls-cert F --tls-key F] [--no-auth-on-loopback]
                                    serve many clients over Streamable HTTP (default 127.0.0.1:7777/mcp)
  agenttool-collab-mcp token add NAME [--expires D] | list | revoke NAME
                                    manage the bearer tokens of serve (see docs/remote.md)
  agenttool-collab-mcp demo [--json] [--keep DIR]
                                    watch three agents coordinate (start here)
  agenttool-collab-mcp --version    print the version
  agenttool-collab-mcp --help       print this help
  agenttool-collab-mcp help COMMAND print a command's usage (also: COMMAND --help)
  agenttool-collab-mcp verify [--db FILE] [--json]
                                    check every journal of a database without changing it
  agenttool-collab-mcp copy --from SOURCE --to TARGET [--replace] [--json]
                                    move whole journals between a SQLite file and PostgreSQL
                                    (either way), every chain verified on both sides; refuses a
                                    target that holds a journal unless --replace
  agenttool-collab-mcp doctor [--json] [--plugin-root DIR]
                                    show which database each host would open and whether
                                    they agree; exit 1 when something needs doing
  agenttool-collab-mcp search QUERY... [--db FILE] [--json] [--rebuild] [filters]
                                    full-text search of everything in the journal
  agenttool-collab-mcp host install|uninstall hermes [--profile P] [--hermes-home DIR] [--dry-run]
                                    add or remove the Hermes server entry and skill
  agenttool-collab-mcp host install|uninstall claude|codex
                                    print the Claude Code or Codex commands that do it
  agenttool-collab-mcp host stage DIR
                                    from a checkout: lay out a local plugin root for this
                                    machine that Claude Code and Codex install offline
  agenttool-collab-mcp guard install|uninstall|status [--mode warn|block] [--pre-push]
                                    warn about (or block) commits over paths another session claims
  agenttool-collab-mcp status|tail|tasks|show|reports|decisions|sessions|handoffs ...
                                    read the journal (see: collab, or docs/cli.md)
  agenttool-collab-mcp post|decide|review|handoff respond|whoami|logout ...
                                    act as a person through a session of your own
  agenttool-collab-mcp web [--addr 127.0.0.1:8484] [--db FILE] [--open] [--allow-remote]
                                    serve a live, read-only web view of the journal
  agenttool-collab-mcp peek [--session-file FILE] [--json] [--hook claude|codex]
                                    what is new for a session, without moving its cursor;
                                    exit 10 when something concerns it, 0 otherwise (fails open)
  agenttool-collab-mcp watch [--session-file FILE] [--json]
                                    print a line per event that concerns the session as it lands
  agenttool-collab-mcp push --tmux PANE [--session-file FILE] [--from LABEL]... [--debounce D]
                                    type one coalesced notice into a terminal agent's tmux pane

Environment:
  AGENTOOL_COLLAB_DB                    database file (default: $XDG_DATA_HOME/agenttool/collab.sqlite)
  AGENTOOL_COLLAB_SESSION_FILE          resume this credential-bound session at startup
  AGENTOOL_COLLAB_ALLOW_CURSOR_RECOVERY set to 1 to start a resumed session in cursor recovery
  AGENTOOL_COLLAB_ANCHOR_LEDGER         anchor sidecar ledger read by collab_anchor_status
  AGENTOOL_COLLAB_SYNCHRONOUS           normal (default) or full: fsync every commit as well
  AGENTOOL_COLLAB_TOOLS                 tool profile: all (default), core, or a comma list of tool names
`)
}

// helpCommand implements `help [COMMAND [SUBCOMMAND]]`: the general usage,
// or the command's own, exactly as COMMAND --help prints it.
func helpCommand(ctx context.Context, topic []string, stdout, stderr io.Writer) int {
	if len(topic) == 0 {
		printUsage(stdout)
		return 0
	}
	cmd, ok := subcommands[topic[0]]
	if !ok {
		fmt.Fprintf(stderr, "help: no command %q\n\n", topic[0])
		printUsage(stderr)
		return 2
	}
	return cmd(ctx, append(append([]string{}, topic[1:]...), "--help"), stdout, stderr)
}
