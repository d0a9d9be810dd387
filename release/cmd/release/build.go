package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/agenttool/collab/release/internal/digest"
	"github.com/agenttool/collab/release/internal/goreleaser"
	"github.com/agenttool/collab/release/internal/stage"
	"github.com/agenttool/collab/release/internal/target"
)

// runBuild runs GoReleaser from the repository root and lists the binaries
// it built with their sizes and sha256.
func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(stderr)
	snapshot := fs.Bool("snapshot", false, "build a snapshot version instead of the tag at HEAD")
	rootDir := fs.String("root", "", "repository root (default: found from the working directory)")
	bin := fs.String("goreleaser", "", "goreleaser binary to run (default: go tool -modfile=release/go.mod goreleaser)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := findRoot(*rootDir)
	if err != nil {
		return err
	}
	err = goreleaser.Run(ctx, goreleaser.Options{Root: root, Snapshot: *snapshot, Bin: *bin, Stdout: stderr, Stderr: stderr})
	if err != nil {
		return err
	}
	dist := filepath.Join(root, "dist")
	meta, err := goreleaser.ReadMetadata(dist)
	if err != nil {
		return err
	}
	bins, err := stage.FromGoReleaser(root, dist)
	if err != nil {
		return err
	}
	if err := bins.Complete(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "version %s\n", meta.Version)
	return printBinaries(stdout, bins)
}

// printBinaries lists each binary in target order with its size and sha256.
func printBinaries(w io.Writer, bins stage.Binaries) error {
	for _, t := range target.All {
		path, ok := bins[t]
		if !ok {
			continue
		}
		s, err := digest.File(path)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%-14s %11d bytes  sha256 %s  %s\n", t, s.Size, s.SHA256Hex(), path)
	}
	return nil
}
