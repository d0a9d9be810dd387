// Command collab is the people's command line for the collab coordination
// journal: the same binary as agenttool-collab-mcp, built under the short
// name so that `go install ./cmd/...` leaves both. Run without arguments it
// lists the people's commands; every subcommand answers as it does there.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/program"
)

// version is the release version when a build stamps one with
// -ldflags "-X main.version=<semver>"; else what the toolchain recorded.
var version string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := program.Main(ctx, os.Args, version, command.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
