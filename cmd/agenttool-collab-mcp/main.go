// Command agenttool-collab-mcp serves the collab coordination journal over
// MCP stdio when run without arguments; subcommands offer human tools. Run
// as collab it is the people's command line (see cmd/collab). Everything it
// does lives in hosts/program and the packages its table names.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/program"
)

// version is the release version, set at build time with
// -ldflags "-X main.version=<semver>" (.goreleaser.yaml). Left empty, the
// binary reports the version the Go toolchain recorded (hosts/buildinfo).
var version string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := program.Main(ctx, os.Args, version, command.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
