package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/release/internal/checksums"
	"github.com/agenttool/collab/release/internal/goreleaser"
	"github.com/agenttool/collab/release/internal/stage"
	"github.com/agenttool/collab/release/internal/target"
)

// runStage stages the npm package root from a GoReleaser dist (or a gobuild
// output), packs it once, and lays out the Release assets: the archives,
// the tarball and checksums.txt with the tarball's line added.
func runStage(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("stage-npm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rootDir := fs.String("root", "", "repository root (default: found from the working directory)")
	dist := fs.String("dist", "", "GoReleaser dist dir (default: <root>/dist)")
	binDir := fs.String("bin-dir", "", "take binaries from a `release gobuild` output dir instead of the dist")
	ver := fs.String("version", "", "package version (default: the one in <dist>/metadata.json)")
	out := fs.String("out", "", "staged package root (default: <dist>/npm)")
	assets := fs.String("assets", "", "write the Release assets here (default: <dist>/release)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := findRoot(*rootDir)
	if err != nil {
		return err
	}
	d := orDefault(*dist, filepath.Join(root, "dist"))
	o := stage.Options{Root: root, Version: *ver, Out: orDefault(*out, filepath.Join(d, "npm"))}
	if o.Version == "" {
		meta, err := goreleaser.ReadMetadata(d)
		if err != nil {
			return err
		}
		o.Version = meta.Version
	}
	if *binDir != "" {
		o.Binaries = stage.FromDir(*binDir, target.All)
	} else if o.Binaries, err = stage.FromGoReleaser(root, d); err != nil {
		return err
	}
	staged, err := stage.Stage(o)
	if err != nil {
		return err
	}
	assetDir := orDefault(*assets, filepath.Join(d, "release"))
	packed, err := stage.Pack(ctx, staged, assetDir)
	if err != nil {
		return err
	}
	if err := layOutAssets(d, assetDir, packed); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "staged   %s (%d files)\n", staged.Dir, len(staged.Files))
	fmt.Fprintf(stdout, "packed   %s\n", packed.File)
	fmt.Fprintf(stdout, "size     %d bytes\nsha256   %s\nintegrity %s\n", packed.Sums.Size, packed.Sums.SHA256Hex(), packed.Integrity)
	return nil
}

// layOutAssets copies GoReleaser's archives next to the packed tarball and
// writes checksums.txt there: GoReleaser's lines plus the tarball's.
func layOutAssets(dist, assetDir string, packed stage.Packed) error {
	sums, err := checksums.Load(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		return err
	}
	for name := range sums {
		if !strings.HasSuffix(name, ".tar.gz") && !strings.HasSuffix(name, ".zip") {
			return fmt.Errorf("checksums.txt lists %s, which is not an archive", name)
		}
		data, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(assetDir, name), data, 0o644); err != nil {
			return err
		}
	}
	sums[filepath.Base(packed.File)] = packed.Sums.SHA256Hex()
	return sums.Write(filepath.Join(assetDir, "checksums.txt"))
}

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}
