// Command release builds, stages, packs and verifies agenttool-collab-mcp
// releases. It lives in a module of its own (release/) so GoReleaser and
// sigstore-go never enter the server's dependency graph.
//
//	release build      run GoReleaser (snapshot, or the tag at HEAD)
//	release gobuild    build binaries with plain `go build` and the release settings
//	release compare    compare the binaries of two builds byte for byte
//	release stage-npm  stage the npm package root, pack it once, lay out the Release assets
//	release verify     check a release offline (or --online against npm and GitHub)
//	release notices    regenerate or check npm/THIRD_PARTY_NOTICES.md
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand: its flags are parsed by Run itself.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"build":     {"run GoReleaser for a snapshot or the tag at HEAD", runBuild},
		"gobuild":   {"build binaries with go build and the release settings", runGoBuild},
		"compare":   {"compare the binaries of two builds byte for byte", runCompare},
		"stage-npm": {"stage the npm package root, pack it once, lay out the Release assets", runStage},
		"verify":    {"check a release's files, modes, binaries and provenance", runVerify},
		"notices":   {"regenerate or check npm/THIRD_PARTY_NOTICES.md", runNotices},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// errFailed is returned by a subcommand that already reported its failure.
var errFailed = errors.New("checks failed")

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout, cmds)
		return 0
	}
	cmd, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "release: unknown command %q\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	err := cmd.run(ctx, args[1:], stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errFailed):
		return 1
	default:
		fmt.Fprintf(stderr, "release %s: %v\n", args[0], err)
		return 1
	}
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "usage: release <command> [flags]   (run `release <command> -h` for its flags)")
	for _, name := range []string{"build", "gobuild", "compare", "stage-npm", "verify", "notices"} {
		fmt.Fprintf(w, "  %-10s %s\n", name, cmds[name].summary)
	}
}
