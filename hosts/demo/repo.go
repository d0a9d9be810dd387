package demo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// demoFiles is the small project the agents coordinate on.
var demoFiles = map[string]string{
	"README.md":            "# shop\n\nA tiny web shop the demo agents work on.\n",
	"src/api/handlers.go":  "package api\n\n// Handlers serve the shop's HTTP API.\n",
	"src/api/ratelimit.go": "package api\n\n// The rate limiter goes here.\n",
	"docs/api.md":          "# API\n",
}

// makeRepository creates a Git repository with one commit at dir. Git runs
// with system and global configuration, hooks and pagers switched off.
func makeRepository(ctx context.Context, dir string) error {
	for name, content := range demoFiles {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("create demo repository: %w", err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return fmt.Errorf("create demo repository: %w", err)
		}
	}
	steps := [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "user.name=collab demo", "-c", "user.email=demo@localhost", "commit", "-q", "--no-verify", "-m", "shop: initial commit"},
	}
	for _, args := range steps {
		cmd := exec.CommandContext(ctx, "git", append([]string{"--no-pager", "-c", "core.hooksPath=/dev/null"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_TERMINAL_PROMPT=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s in the demo repository: %w: %s (is git installed?)", args[0], err, out)
		}
	}
	return nil
}
