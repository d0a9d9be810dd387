package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/agenttool/collab/release/internal/gobuild"
	"github.com/agenttool/collab/release/internal/stage"
	"github.com/agenttool/collab/release/internal/target"
	"github.com/agenttool/collab/release/internal/version"
)

// runGoBuild builds the server with plain `go build` and the release
// settings, for reproducibility checks.
func runGoBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gobuild", flag.ContinueOnError)
	fs.SetOutput(stderr)
	src := fs.String("src", "", "repository checkout to build (default: found from the working directory)")
	ver := fs.String("version", "", "version to stamp, without v (required)")
	out := fs.String("out", "", "output dir; binaries land in <out>/<platform>-<arch>/ (required)")
	targets := fs.String("targets", "all", "comma-separated goos/goarch list, or all")
	gocache := fs.String("gocache", "", "GOCACHE for these builds (default: the caller's)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("-out is required")
	}
	if err := version.Check(*ver); err != nil {
		return err
	}
	ts, err := target.ParseList(*targets)
	if err != nil {
		return err
	}
	root, err := findRoot(*src)
	if err != nil {
		return err
	}
	bins, err := gobuild.Build(ctx, gobuild.Options{Src: root, Version: *ver, Out: *out, Targets: ts, GoCache: *gocache})
	if err != nil {
		return err
	}
	return printBinaries(stdout, stage.Binaries(bins))
}
