// Package setup carries out `agenttool-collab-mcp host install|uninstall`:
// it writes the Hermes server entry and skill, and produces the commands
// Claude Code and Codex run themselves. It reads the process through Env
// so it can be exercised against temporary folders.
package setup

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenttool/collab/core/place"
)

// Env is what setup reads from the running process: its environment
// (variables, OS, working directory) and its own executable.
type Env struct {
	place.Env
	Executable func() (string, error)
}

// ProcessEnv reads the real process.
func ProcessEnv() Env {
	return Env{Env: place.OS(), Executable: executablePath}
}

// executablePath is this binary's path with symlinks resolved.
func executablePath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, nil
}

// Database returns the absolute database path env selects, the way the
// server would resolve it in env's working directory; a PostgreSQL URL is
// returned as set (password included: never show it, see place.Shown).
func Database(env Env) (string, error) {
	choice, err := place.Database(env.Env)
	if err != nil {
		return "", err
	}
	if choice.Path == place.Memory {
		return "", fmt.Errorf("%s is %s; a host needs a database file", place.EnvDB, place.Memory)
	}
	if filepath.IsAbs(choice.Path) || place.IsPostgres(choice.Path) {
		return choice.Path, nil
	}
	cwd, err := env.Cwd()
	if err != nil {
		return "", err
	}
	return filepath.Join(cwd, choice.Path), nil
}
