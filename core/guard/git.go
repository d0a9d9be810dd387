package guard

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/gitstate"
)

// safeConfig switches off every program a repository's configuration could
// make these read-only Git calls run, as checkpoints do (gitstate's
// hardening: fsmonitor, hooks, external diff, pagers, transports), plus
// credential helpers. Filters do not run for the name-only diffs of
// committed blobs the guard asks for (--cached, or between commits).
var safeConfig = append(gitstate.HardeningArgs(), "-c", "credential.helper=", "--no-optional-locks")

// scrubbedEnv is the environment for Git: the caller's, without variables
// that name programs for Git to run. GIT_DIR, GIT_INDEX_FILE and
// GIT_WORK_TREE are kept: inside a hook they say which index the commit
// being made is built from.
func scrubbedEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_EXTERNAL_DIFF", "GIT_PAGER", "PAGER", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_SSH", "GIT_SSH_COMMAND",
			"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_EDITOR":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
}

// git runs one read-only Git command in dir and returns its stdout.
func git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	full := append(append([]string{"-C", dir}, safeConfig...), args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = scrubbedEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("git %s: %w (%s)", args[0], err, msg)
	}
	return stdout.Bytes(), nil
}

// Toplevel returns the canonical root of the worktree that contains dir,
// as collab records worktree roots (symbolic links resolved).
func Toplevel(ctx context.Context, dir string) (string, error) {
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	root := strings.TrimRight(string(out), "\n")
	if root == "" {
		return "", fmt.Errorf("%s is not inside a Git worktree", dir)
	}
	return filepath.EvalSymlinks(root)
}

// Staged lists what the commit being made changes: the index (the one
// GIT_INDEX_FILE names inside a hook) against HEAD, renames detected.
func Staged(ctx context.Context, dir string) ([]Change, error) {
	out, err := git(ctx, dir, "diff", "--cached", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv",
		"--ignore-submodules=none")
	if err != nil {
		return nil, err
	}
	return ParseNameStatus(out)
}

// zeroID is Git's object name for "no commit" in pre-push input.
func zeroID(id string) bool { return strings.Trim(id, "0") == "" }

// Pushed lists what a push changes, from the lines Git writes to a
// pre-push hook's stdin ("<local ref> <local id> <remote ref> <remote id>").
// A new branch counts every commit not yet on the remote named remote; a
// deleted branch changes nothing.
func Pushed(ctx context.Context, dir, remote string, stdin []byte) ([]Change, error) {
	var all []Change
	for _, line := range strings.Split(strings.TrimSpace(string(stdin)), "\n") {
		f := strings.Fields(line)
		if len(f) != 4 || zeroID(f[1]) {
			continue
		}
		var out []byte
		var err error
		if zeroID(f[3]) {
			args := []string{"log", "--format=", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", f[1], "--not"}
			if remote != "" {
				args = append(args, "--remotes="+remote)
			} else {
				args = append(args, "--remotes")
			}
			out, err = git(ctx, dir, args...)
		} else {
			out, err = git(ctx, dir, "diff", "--name-status", "-z", "-M", "--no-ext-diff", "--no-textconv", f[3], f[1])
		}
		if err != nil {
			return nil, err
		}
		changes, err := ParseNameStatus(out)
		if err != nil {
			return nil, err
		}
		all = append(all, changes...)
	}
	return all, nil
}

// HooksDir returns the folder Git runs hooks from for the repository that
// contains dir: core.hooksPath when set, else the common hooks folder that
// every linked worktree shares.
func HooksDir(ctx context.Context, dir string) (string, error) {
	// Read the configured path without safeConfig's override of it.
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "--no-optional-locks", "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	cmd.Env = scrubbedEnv()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("find the hooks folder: %w", err)
	}
	return strings.TrimRight(string(out), "\n"), nil
}
