// Package gobuild builds the server with the release settings of package
// target using the plain go command, for reproducibility checks against
// GoReleaser's output and between checkouts.
package gobuild

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/agenttool/collab/release/internal/target"
)

// Options says what to build.
type Options struct {
	Src     string          // repository checkout
	Version string          // stamped into main.version
	Out     string          // binaries land in <Out>/<npm platform>/<exe>
	Targets []target.Target // what to build
	GoCache string          // GOCACHE for the builds; empty keeps the caller's
}

// Build compiles each target in turn and returns the binaries' paths.
func Build(ctx context.Context, o Options) (map[target.Target]string, error) {
	out := map[target.Target]string{}
	for _, t := range o.Targets {
		dst, err := filepath.Abs(filepath.Join(o.Out, t.NPMPlatform(), t.Exe()))
		if err != nil {
			return nil, err
		}
		cmd := exec.CommandContext(ctx, "go", target.BuildArgs(o.Version, dst)...)
		cmd.Dir = o.Src
		cmd.Env = append(os.Environ(), t.Env()...)
		if o.GoCache != "" {
			cmd.Env = append(cmd.Env, "GOCACHE="+o.GoCache)
		}
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stderr, &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("go build for %s: %w: %s", t, err, stderr.String())
		}
		out[t] = dst
	}
	return out, nil
}
