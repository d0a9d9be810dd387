// Package program is the binary's command line: the table of its
// subcommands and the dispatch that reads it, shared by
// cmd/agenttool-collab-mcp and cmd/collab.
package program

import (
	"context"
	"fmt"
	"os"

	"github.com/agenttool/collab/hosts/buildinfo"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/profile"
	"github.com/agenttool/collab/hosts/serve"
)

// Main runs the process argv describes and returns its exit status. stamp
// is the release version written into package main at build time ("" for
// other builds). Run as collab without arguments from a terminal it prints
// the people's commands; otherwise it runs Run with the profiling the
// environment asks for, so collab started by a host (stdin a pipe) serves
// MCP exactly as agenttool-collab-mcp does.
func Main(ctx context.Context, argv []string, stamp string, s command.IO) int {
	if command.NameFor(argv[0]) == command.ShortName && len(argv) == 1 && command.ReadsTerminal(s.Stdin) {
		PrintPeopleUsage(s.Stdout)
		return command.ExitOK
	}
	return profile.Run(os.Getenv, s.Stderr, func() int { return Run(ctx, stamp, argv[1:], s) })
}

// Run dispatches one invocation (args after the program name) and returns
// its exit status: no arguments serve MCP on stdio, --version (the name
// typed and the version) and --help are the program's own, anything else
// names a command of Commands.
func Run(ctx context.Context, stamp string, args []string, s command.IO) int {
	version := buildinfo.Version(stamp)
	if len(args) == 0 {
		return serve.Stdio(ctx, version, s.Stdin, s.Stdout, s.Stderr)
	}
	switch args[0] {
	case "--version", "-version", "version":
		fmt.Fprintf(s.Stdout, "%s %s\n", command.ProgramName(), version)
		return command.ExitOK
	case "--help", "-help", "-h":
		PrintUsage(s.Stdout)
		return command.ExitOK
	}
	cmds := Commands(version)
	if c, ok := lookup(cmds, args[0]); ok {
		return command.Report(s.Stderr, c.Name, c.Run(ctx, s, args[1:]))
	}
	fmt.Fprintln(s.Stderr, unknownCommand(args[0], cmds))
	return command.ExitUsage
}
