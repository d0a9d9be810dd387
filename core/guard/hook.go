package guard

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Hook names the guard can be installed as.
const (
	PreCommit = "pre-commit"
	PrePush   = "pre-push"
)

// Modes: warn prints conflicts and lets Git go on; block refuses.
const (
	ModeWarn  = "warn"
	ModeBlock = "block"
)

// marker is the second line of every hook the guard writes; a hook without
// it is someone else's and is chained, never overwritten.
const marker = "# collab guard: written by 'agenttool-collab-mcp guard install'; undo with 'guard uninstall'"

// chainedSuffix is appended to the name of a hook that was there before
// the guard; the guard's hook runs it after its own check.
const chainedSuffix = ".collab-chained"

// InstallOptions says what to install where.
type InstallOptions struct {
	Dir      string   // any folder of the repository
	Hooks    []string // PreCommit and/or PrePush
	Mode     string   // ModeWarn or ModeBlock
	Binary   string   // absolute path of the binary the hook runs
	Database string   // database file the hook checks; empty: the one the environment names when it runs
}

// HookState is what Status finds for one hook.
type HookState struct {
	Hook      string `json:"hook"`
	Path      string `json:"path"`
	Installed bool   `json:"installed"`
	Mode      string `json:"mode,omitempty"`
	Binary    string `json:"binary,omitempty"`
	Database  string `json:"database,omitempty"`
	Chained   string `json:"chained,omitempty"` // the pre-existing hook that runs after the guard
	Foreign   bool   `json:"foreign,omitempty"` // a hook not written by the guard is there
}

// Install writes the guard's hook for each of opts.Hooks into the folder
// Git runs hooks from. A hook already there that the guard did not write
// is renamed to <hook>.collab-chained and run after the check, with the
// same arguments and input; installing again only updates the guard's own
// hook.
func Install(ctx context.Context, opts InstallOptions) ([]HookState, error) {
	if opts.Mode != ModeWarn && opts.Mode != ModeBlock {
		return nil, fmt.Errorf("mode must be %s or %s, not %q", ModeWarn, ModeBlock, opts.Mode)
	}
	dir, err := HooksDir(ctx, opts.Dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the hooks folder: %w", err)
	}
	var states []HookState
	for _, name := range opts.Hooks {
		path := filepath.Join(dir, name)
		if err := chainExisting(path); err != nil {
			return states, err
		}
		if err := writeHook(path, script(name, opts, path+chainedSuffix)); err != nil {
			return states, err
		}
		st, err := hookState(name, path)
		if err != nil {
			return states, err
		}
		states = append(states, st)
	}
	return states, nil
}

// chainExisting moves a hook the guard did not write out of the way.
func chainExisting(path string) error {
	body, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the existing hook: %w", err)
	}
	if ours(body) {
		return nil
	}
	if _, err := os.Lstat(path + chainedSuffix); err == nil {
		return fmt.Errorf("both %s and %s exist and neither is the guard's: move one away first", path, path+chainedSuffix)
	}
	if err := os.Rename(path, path+chainedSuffix); err != nil {
		return fmt.Errorf("keep the existing hook: %w", err)
	}
	return nil
}

// writeHook replaces path atomically with an executable script.
func writeHook(path, body string) error {
	tmp := path + ".collab-tmp"
	if err := os.WriteFile(tmp, []byte(body), 0o755); err != nil {
		return fmt.Errorf("write the hook: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // a umask may have narrowed it
		os.Remove(tmp)
		return fmt.Errorf("write the hook: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write the hook: %w", err)
	}
	return nil
}

// Uninstall removes the guard's hooks and puts back any hook it chained.
// A hook the guard did not write is left alone.
func Uninstall(ctx context.Context, dir string, hooks []string) ([]HookState, error) {
	hooksDir, err := HooksDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	var states []HookState
	for _, name := range hooks {
		path := filepath.Join(hooksDir, name)
		body, err := os.ReadFile(path)
		if err == nil && ours(body) {
			if err := os.Remove(path); err != nil {
				return states, fmt.Errorf("remove the hook: %w", err)
			}
		}
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			if _, err := os.Lstat(path + chainedSuffix); err == nil {
				if err := os.Rename(path+chainedSuffix, path); err != nil {
					return states, fmt.Errorf("restore the earlier hook: %w", err)
				}
			}
		}
		st, err := hookState(name, path)
		if err != nil {
			return states, err
		}
		states = append(states, st)
	}
	return states, nil
}

// Status reports each hook's state without changing anything.
func Status(ctx context.Context, dir string, hooks []string) ([]HookState, error) {
	hooksDir, err := HooksDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	var states []HookState
	for _, name := range hooks {
		st, err := hookState(name, filepath.Join(hooksDir, name))
		if err != nil {
			return states, err
		}
		states = append(states, st)
	}
	return states, nil
}

func hookState(name, path string) (HookState, error) {
	st := HookState{Hook: name, Path: path}
	if _, err := os.Lstat(path + chainedSuffix); err == nil {
		st.Chained = path + chainedSuffix
	}
	body, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("read %s: %w", path, err)
	}
	if !ours(body) {
		st.Foreign = true
		return st, nil
	}
	st.Installed = true
	st.Mode = setting(body, "mode")
	st.Binary = setting(body, "binary")
	st.Database = setting(body, "database")
	return st, nil
}

func ours(body []byte) bool { return strings.Contains(string(body), marker) }

// setting reads a "collab_<name>='value'" line of a guard hook.
func setting(body []byte, name string) string {
	prefix := "collab_" + name + "="
	for _, line := range strings.Split(string(body), "\n") {
		if v, ok := strings.CutPrefix(line, prefix); ok {
			return unquote(v)
		}
	}
	return ""
}

// quote renders s as one single-quoted POSIX shell word.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func unquote(s string) string {
	s = strings.TrimPrefix(strings.TrimSuffix(s, "'"), "'")
	return strings.ReplaceAll(s, `'\''`, "'")
}

// RefuseStatus is the exit status by which `guard check` tells the hook
// that a block-mode check found a conflict. It is the only status the hook
// turns into a refusal: Git and the shell use 1, 2, 126, 127 and 128+N for
// their own failures (a usage error, a binary that cannot be executed or
// found, a crash), and a hook that passed those on would stop commits
// because the guard itself is broken.
const RefuseStatus = 86

// script is the hook: the check (unless bypassed), then the chained hook
// with the same arguments and, for pre-push, the same input. Only the
// check's RefuseStatus in block mode stops Git; any other failure of the
// binary (missing, truncated, crashed, an older build, a launcher that
// cannot start) prints one "not checked" line and lets Git go on. The
// check's own stderr is held until it ends so that a broken binary's
// noise (and the shell's "Segmentation fault") is replaced by that line.
func script(name string, opts InstallOptions, chained string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n%s\n", marker)
	fmt.Fprintf(&b, "collab_hook=%s\ncollab_mode=%s\ncollab_binary=%s\ncollab_database=%s\ncollab_chained=%s\n",
		quote(name), quote(opts.Mode), quote(opts.Binary), quote(opts.Database), quote(chained))
	check := `"$collab_binary" guard check --hook "$collab_hook" --mode "$collab_mode" ${collab_database:+--db "$collab_database"} -- "$@"`
	chain := `"$collab_chained" "$@"`
	if name == PrePush {
		b.WriteString("collab_input=$(cat)\n")
		check = `printf '%s\n' "$collab_input" | ` + check
		chain = `printf '%s\n' "$collab_input" | ` + chain
	}
	fmt.Fprintf(&b, `if [ "${AGENTOOL_COLLAB_GUARD:-}" = off ]; then
  :
elif [ -x "$collab_binary" ]; then
  collab_said=$( { %s; } 2>&1 >/dev/null )
  collab_status=$?
  if [ "$collab_status" -eq 0 ] || [ "$collab_status" -eq %d ]; then
    [ -z "$collab_said" ] || printf '%%s\n' "$collab_said" >&2
  else
    echo "collab guard: not checked: $collab_binary failed with exit status $collab_status (reinstall collab, then run 'guard install' again)" >&2
  fi
  if [ "$collab_status" -eq %d ] && [ "$collab_mode" = %s ]; then
    exit 1
  fi
else
  echo "collab guard: not checked: $collab_binary is gone (run 'guard install' again)" >&2
fi
if [ -x "$collab_chained" ]; then
  %s || exit $?
fi
exit 0
`, check, RefuseStatus, RefuseStatus, ModeBlock, chain)
	return b.String()
}
