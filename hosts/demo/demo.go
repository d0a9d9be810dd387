// Package demo runs a scripted coordination of three agents, each a real
// collab MCP server process spoken to over stdio, on a fresh Git repository
// and database. It narrates what happens for a person meeting collab for the
// first time and fails when any step does not behave as scripted, so it
// doubles as an end-to-end smoke test of the shipped binary.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Options configures Run.
type Options struct {
	// Server is the argv that starts one MCP stdio server (normally this
	// very binary, from os.Executable).
	Server []string
	// Env is added to the environment of every server process.
	Env []string
	// Keep, when set, is the directory that receives the repository and
	// database and is left in place; otherwise a temporary one is removed.
	Keep string
	// Out receives the narrative; nil discards it.
	Out io.Writer
	// Color adds ANSI colour to the narrative.
	Color bool
	// Again is how a person runs this program again (see Again), for the
	// commands the narrative ends with; "collab" when empty.
	Again string
}

// Transcript is the record of one run, as printed by --json.
type Transcript struct {
	OK          bool   `json:"ok"`
	Database    string `json:"database"`
	Repository  string `json:"repository"`
	Kept        bool   `json:"kept"`
	WorkspaceID string `json:"workspace_id"`
	ElapsedMS   int64  `json:"elapsed_ms"`
	Steps       []Step `json:"steps"`
	Failure     string `json:"failure,omitempty"`
}

// Step is one scripted action and what came of it.
type Step struct {
	Agent    string `json:"agent"`
	Tool     string `json:"tool"`
	Says     string `json:"says"`
	Expected string `json:"expected"`
	Outcome  string `json:"outcome"`
	Detail   string `json:"detail,omitempty"`
	OK       bool   `json:"ok"`
}

// ErrScript reports that a step did not behave as scripted.
var ErrScript = errors.New("the demo did not go as scripted")

// Run performs the script. The returned transcript is complete even when
// err is non-nil; err wraps ErrScript when a step misbehaved.
func Run(ctx context.Context, opts Options) (Transcript, error) {
	start := time.Now()
	tr := Transcript{}
	dir, cleanup, err := workDir(opts.Keep)
	if err != nil {
		return tr, err
	}
	defer cleanup()
	tr.Kept = opts.Keep != ""
	tr.Repository = filepath.Join(dir, "repo")
	tr.Database = filepath.Join(dir, "state", "collab.sqlite")
	if err := makeRepository(ctx, tr.Repository); err != nil {
		return tr, err
	}
	s := &script{opts: opts, tr: &tr, out: opts.Out}
	if s.out == nil {
		s.out = io.Discard
	}
	err = s.run(ctx)
	tr.ElapsedMS = time.Since(start).Milliseconds()
	tr.OK = err == nil
	if err != nil {
		tr.Failure = err.Error()
	}
	s.epilogue()
	return tr, err
}

// workDir returns the directory the run uses and how to clean it up.
func workDir(keep string) (string, func(), error) {
	if keep != "" {
		abs, err := filepath.Abs(keep)
		if err != nil {
			return "", nil, fmt.Errorf("resolve --keep directory: %w", err)
		}
		if entries, err := os.ReadDir(abs); err == nil && len(entries) > 0 {
			return "", nil, fmt.Errorf("--keep directory %s is not empty; name a new or empty directory", abs)
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return "", nil, fmt.Errorf("create --keep directory: %w", err)
		}
		abs, _ = filepath.EvalSymlinks(abs)
		return abs, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "collab-demo-")
	if err != nil {
		return "", nil, fmt.Errorf("create a temporary directory: %w", err)
	}
	resolved, err := filepath.EvalSymlinks(tmp)
	if err != nil {
		resolved = tmp
	}
	return resolved, func() { os.RemoveAll(tmp) }, nil
}
