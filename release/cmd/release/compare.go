package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/agenttool/collab/release/internal/digest"
	"github.com/agenttool/collab/release/internal/report"
	"github.com/agenttool/collab/release/internal/stage"
	"github.com/agenttool/collab/release/internal/target"
)

// runCompare checks that two builds produced byte-identical binaries for
// every target both contain (at least one). Each side is a GoReleaser dist
// directory or a `release gobuild` output directory.
func runCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	fs.SetOutput(stderr)
	a := fs.String("a", "", "first build: GoReleaser dist dir or gobuild output dir")
	b := fs.String("b", "", "second build, same forms")
	if err := fs.Parse(args); err != nil {
		return err
	}
	left, err := buildOutput(*a)
	if err != nil {
		return err
	}
	right, err := buildOutput(*b)
	if err != nil {
		return err
	}
	r := &report.Report{}
	for _, t := range target.All {
		lp, lok := left[t]
		rp, rok := right[t]
		if !lok || !rok {
			continue
		}
		r.Add(t.String()+" binaries are byte-identical", sameFile(lp, rp))
	}
	r.Write(stdout, "compare")
	if !r.OK() {
		return errFailed
	}
	return nil
}

// buildOutput reads the binaries of a GoReleaser dist (it has
// artifacts.json) or of a gobuild output dir (whatever targets exist).
func buildOutput(dir string) (stage.Binaries, error) {
	if dir == "" {
		return nil, fmt.Errorf("both -a and -b are required")
	}
	if _, err := os.Stat(filepath.Join(dir, "artifacts.json")); err == nil {
		return stage.FromGoReleaser(filepath.Dir(dir), dir)
	}
	out := stage.Binaries{}
	for t, p := range stage.FromDir(dir, target.All) {
		if _, err := os.Stat(p); err == nil {
			out[t] = p
		}
	}
	return out, nil
}

func sameFile(a, b string) error {
	sa, err := digest.File(a)
	if err != nil {
		return err
	}
	sb, err := digest.File(b)
	if err != nil {
		return err
	}
	if sa.SHA256 != sb.SHA256 {
		return fmt.Errorf("%s is %s (%d bytes), %s is %s (%d bytes)", a, sa.SHA256Hex(), sa.Size, b, sb.SHA256Hex(), sb.Size)
	}
	return nil
}
