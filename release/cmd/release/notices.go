package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/release/internal/notices"
	"github.com/agenttool/collab/release/internal/target"
)

// noticesPath is where the generated notices live in the repository.
const noticesPath = "npm/THIRD_PARTY_NOTICES.md"

// runNotices regenerates npm/THIRD_PARTY_NOTICES.md (-w) or checks that the
// committed file is what generation gives now.
func runNotices(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("notices", flag.ContinueOnError)
	fs.SetOutput(stderr)
	rootDir := fs.String("root", "", "repository root (default: found from the working directory)")
	write := fs.Bool("w", false, "write the file instead of checking it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := findRoot(*rootDir)
	if err != nil {
		return err
	}
	want, err := generateNotices(ctx, root)
	if err != nil {
		return err
	}
	path := filepath.Join(root, filepath.FromSlash(noticesPath))
	if *write {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s\n", noticesPath)
		return nil
	}
	got, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		fmt.Fprintf(stderr, "%s is stale: run `cd release && go run ./cmd/release notices -w`\n", noticesPath)
		return errFailed
	}
	fmt.Fprintf(stdout, "%s is current\n", noticesPath)
	return nil
}

// generateNotices renders the notices for the server in the checkout at root.
func generateNotices(ctx context.Context, root string) ([]byte, error) {
	mods, err := notices.Compiled(ctx, root, target.All)
	if err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	return notices.Render(strings.TrimSpace(string(out)), mods)
}
