// Package goreleaser runs GoReleaser OSS, a tool of the release module, from
// the repository root, so the server's go.mod never sees its dependencies.
package goreleaser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
)

// Options says how to run one GoReleaser release.
type Options struct {
	Root     string // repository root holding .goreleaser.yaml
	Snapshot bool   // build a snapshot version instead of the tag at HEAD
	Bin      string // a prebuilt goreleaser binary; empty runs `go tool`
	Stdout   io.Writer
	Stderr   io.Writer
}

// Args returns the GoReleaser arguments: a snapshot build, or a tag build
// that publishes nothing (the workflow attests and publishes the files
// itself, after packing the npm tarball).
func (o Options) Args() []string {
	args := []string{"release", "--clean"}
	if o.Snapshot {
		return append(args, "--snapshot")
	}
	return append(args, "--skip=publish,announce")
}

// Run executes GoReleaser. GOFLAGS is cleared so the build settings come
// from .goreleaser.yaml alone.
func Run(ctx context.Context, o Options) error {
	var cmd *exec.Cmd
	if o.Bin != "" {
		cmd = exec.CommandContext(ctx, o.Bin, o.Args()...)
	} else {
		modfile := filepath.Join(o.Root, "release", "go.mod")
		cmd = exec.CommandContext(ctx, "go", append([]string{"tool", "-modfile=" + modfile, "goreleaser"}, o.Args()...)...)
	}
	cmd.Dir = o.Root
	cmd.Env = append(os.Environ(), "GOFLAGS=")
	cmd.Stdout, cmd.Stderr = o.Stdout, o.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("goreleaser %v: %w", o.Args(), err)
	}
	return nil
}

// Metadata is the part of <dist>/metadata.json used here.
type Metadata struct {
	Version string `json:"version"`
	Tag     string `json:"tag"`
	Commit  string `json:"commit"`
}

// ReadMetadata reads <dist>/metadata.json, which names the version GoReleaser
// stamped (for a snapshot, the snapshot version).
func ReadMetadata(dist string) (Metadata, error) {
	data, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		return Metadata{}, fmt.Errorf("read GoReleaser metadata: %w", err)
	}
	var m Metadata
	if err := json.Unmarshal(data, &m); err != nil {
		return Metadata{}, fmt.Errorf("parse GoReleaser metadata: %w", err)
	}
	if m.Version == "" {
		return Metadata{}, fmt.Errorf("GoReleaser metadata names no version")
	}
	return m, nil
}
