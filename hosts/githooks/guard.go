// Package githooks is the guard command: it installs, inspects and removes
// the Git hooks that warn about (or block) commits over paths another
// session claims, and runs the hooks' check.
package githooks

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/guard"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/setup"
)

const guardUsage = `usage: agenttool-collab-mcp guard install [--pre-commit] [--pre-push] [--mode warn|block] [--db FILE] [--dir DIR] [--binary PATH]
       agenttool-collab-mcp guard uninstall [--dir DIR] [--json]
       agenttool-collab-mcp guard status [--dir DIR] [--json]

` + guardAbout

const guardAbout = `Warns about (or blocks) a commit or push that touches paths another collab
session has claimed. Installs Git hooks into the repository (following
core.hooksPath; linked worktrees share them) and keeps any hook already
there working. Default: --pre-commit, --mode warn.

Bypass once: AGENTOOL_COLLAB_GUARD=off git commit ...  (or git commit --no-verify)
`

// defaultGuardBudget bounds one hook check; past it the hook fails open.
const defaultGuardBudget = 200 * time.Millisecond

// Guard dispatches `guard install|uninstall|status|check`; check reads the
// hook's input from stdin.
func Guard(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, guardUsage)
		return 2
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, guardUsage)
		return 0
	}
	switch args[0] {
	case "install":
		return guardInstall(ctx, args[1:], stdout, stderr)
	case "uninstall", "status":
		return guardInspect(ctx, args[0], args[1:], stdout, stderr)
	case "check":
		return guardCheck(ctx, args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "guard: unknown command %q\n\n%s", args[0], guardUsage)
	return 2
}

// guardCommand is one guard subcommand with the binary's conventions.
func guardCommand(verb, synopsis string) *command.Parser {
	return command.NewParser("guard "+verb, "guard "+verb+" "+synopsis+"\n\n"+guardAbout)
}

func guardInstall(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := guardCommand("install", "[--pre-commit] [--pre-push] [--mode warn|block] [--db FILE] [--dir DIR] [--binary PATH]")
	fs := c.Flags
	preCommit := fs.Bool("pre-commit", false, "check commits (the default when no hook is named)")
	prePush := fs.Bool("pre-push", false, "check pushes")
	mode := fs.String("mode", guard.ModeWarn, "warn or block")
	db := fs.String("db", "", "database the hook reads (default: the one its environment names when it runs)")
	dir := fs.String("dir", ".", "a folder of the repository")
	binary := fs.String("binary", "", "the program the hook runs (default: this binary), e.g. a launcher on PATH")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	hooks := selectedHooks(*preCommit, *prePush)
	bin, err := installedBinary(*binary)
	if err != nil {
		return command.Failure(stderr, err)
	}
	if *db != "" {
		if *db, err = filepath.Abs(*db); err != nil {
			return command.Failure(stderr, err)
		}
	}
	states, err := guard.Install(ctx, guard.InstallOptions{Dir: *dir, Hooks: hooks, Mode: *mode, Binary: bin, Database: *db})
	if err != nil {
		return command.Failure(stderr, err)
	}
	for _, st := range states {
		fmt.Fprintf(stdout, "✔ %s hook installed in %s mode: %s\n", st.Hook, st.Mode, st.Path)
		if st.Chained != "" {
			fmt.Fprintf(stdout, "  the hook that was there runs after the check: %s\n", st.Chained)
		}
	}
	return 0
}

func selectedHooks(preCommit, prePush bool) []string {
	var hooks []string
	if preCommit || !prePush {
		hooks = append(hooks, guard.PreCommit)
	}
	if prePush {
		hooks = append(hooks, guard.PrePush)
	}
	return hooks
}

// installedBinary is the absolute path the hook will run: the one given,
// else this binary, unless it is a temporary Go build that vanishes
// (setup.LastingBinary, the check every command writing this path into
// another program's configuration shares).
func installedBinary(given string) (string, error) {
	if given != "" {
		abs, err := filepath.Abs(given)
		if err != nil {
			return "", err
		}
		if fi, err := os.Stat(abs); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("--binary %s is not an executable file", given)
		}
		return abs, setup.LastingBinary(abs)
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find this binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, setup.LastingBinary(exe)
}

func guardInspect(ctx context.Context, verb string, args []string, stdout, stderr io.Writer) int {
	c := guardCommand(verb, "[--dir DIR] [--json]")
	dir := c.Flags.String("dir", ".", "a folder of the repository")
	asJSON := c.Flags.Bool("json", false, "print JSON")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	hooks := []string{guard.PreCommit, guard.PrePush}
	var states []guard.HookState
	var err error
	if verb == "uninstall" {
		states, err = guard.Uninstall(ctx, *dir, hooks)
	} else {
		states, err = guard.Status(ctx, *dir, hooks)
	}
	if err != nil {
		return c.Fail(*asJSON, stdout, stderr, 1, err)
	}
	if *asJSON {
		command.WriteJSON(stdout, states)
		return 0
	}
	for _, st := range states {
		fmt.Fprintln(stdout, describeHook(verb, st))
	}
	return 0
}

func describeHook(verb string, st guard.HookState) string {
	switch {
	case st.Installed:
		line := fmt.Sprintf("%s: guard installed, %s mode (%s)", st.Hook, st.Mode, st.Path)
		if st.Chained != "" {
			line += "; then runs " + filepath.Base(st.Chained)
		}
		return line
	case st.Foreign:
		if verb == "uninstall" {
			return fmt.Sprintf("%s: no guard; your own hook is in place (%s)", st.Hook, st.Path)
		}
		return fmt.Sprintf("%s: not guarded; another hook is there (%s)", st.Hook, st.Path)
	default:
		return fmt.Sprintf("%s: no guard", st.Hook)
	}
}

// guardCheck is what an installed hook runs. It fails open: whatever goes
// wrong, one warning on stderr and exit 0. Only a conflict in block mode
// exits, with guard.RefuseStatus, the one status the hook refuses on.
func guardCheck(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := guardCommand("check", "--hook pre-commit|pre-push --mode warn|block [--db FILE] [-- REMOTE URL]  (run by the installed hook)")
	fs := c.Flags
	hook := fs.String("hook", guard.PreCommit, "pre-commit or pre-push")
	mode := fs.String("mode", guard.ModeWarn, "warn or block")
	db := fs.String("db", "", "database file")
	rest, code, done := c.Parse(args, 0, -1, stdout, stderr)
	if done {
		if code != 0 {
			fmt.Fprintln(stderr, "collab guard: not checked: bad hook arguments (run 'guard install' again)")
		}
		return 0
	}
	if os.Getenv(place.EnvGuard) == "off" {
		return 0
	}
	in := guard.CheckInput{Hook: *hook, Dir: ".", Database: *db}
	// Git runs hooks from the worktree's top level (githooks(5)): no need
	// to ask it again.
	if wd, err := os.Getwd(); err == nil {
		in.Root, _ = filepath.EvalSymlinks(wd)
	}
	if *hook == guard.PrePush {
		if len(rest) > 0 {
			in.Remote = rest[0]
		}
		in.PushInput, _ = io.ReadAll(io.LimitReader(stdin, 1<<20))
	}
	v, err := runCheck(ctx, in)
	if err != nil {
		fmt.Fprintf(stderr, "collab guard: not checked: %s\n", err)
		return 0
	}
	for _, c := range v.Conflicts {
		fmt.Fprintln(stderr, "collab guard: "+conflictLine(c))
	}
	if len(v.Conflicts) == 0 {
		return 0
	}
	if *mode == guard.ModeBlock {
		fmt.Fprintf(stderr, "collab guard: refused (block mode). Coordinate with the holder, or bypass once with AGENTOOL_COLLAB_GUARD=off or --no-verify.\n")
		return guard.RefuseStatus
	}
	return 0
}

// runCheck resolves the database and credential from the environment and
// checks within the time budget. The budget is a hard one: the check runs
// beside a timer, and when the timer fires first the answer is "took
// longer" whatever the check is still waiting on (Git, a lock, a slow
// disk); the process then exits, which ends the check.
func runCheck(ctx context.Context, in guard.CheckInput) (guard.Verdict, error) {
	budget := defaultGuardBudget
	if v := os.Getenv(place.EnvGuardTimeout); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			budget = d
		}
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	type result struct {
		v   guard.Verdict
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := checkFromEnvironment(ctx, in)
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		if ctx.Err() != nil {
			return r.v, fmt.Errorf("the check took longer than %s", budget)
		}
		return r.v, r.err
	case <-ctx.Done():
		return guard.Verdict{}, fmt.Errorf("the check took longer than %s", budget)
	}
}

// checkFromEnvironment fills in what the hook's environment names (the
// database, the session's credential) and runs the check.
func checkFromEnvironment(ctx context.Context, in guard.CheckInput) (guard.Verdict, error) {
	if in.Database == "" {
		choice, err := place.Database(place.OS())
		if err != nil {
			return guard.Verdict{}, err
		}
		in.Database = choice.Path
	}
	if in.Database == backend.MemoryPath {
		return guard.Verdict{}, fmt.Errorf("the database is in memory")
	}
	if place.IsPostgres(in.Database) {
		// A server: the read-only Open creates nothing and says why it fails.
	} else if _, err := os.Stat(in.Database); err != nil {
		return guard.Verdict{}, fmt.Errorf("no collab database at %s", in.Database)
	}
	if f := os.Getenv(place.EnvSessionFile); f != "" {
		if c, err := credfile.Read(f); err == nil {
			in.Own = &c
		}
	}
	return guard.Check(ctx, in)
}

// conflictLine renders one conflict for a person at a terminal.
func conflictLine(c guard.Conflict) string {
	r := c.Reservation
	var b bytes.Buffer
	what := "claimed"
	if r.Review {
		what = "awaiting review"
	}
	fmt.Fprintf(&b, "%s is inside %q, %s by task %s", c.Path, c.Scope, what, r.TaskID)
	if r.Title != "" {
		fmt.Fprintf(&b, " (%q)", r.Title)
	}
	var holder []string
	if r.AssigneeSessionID != nil {
		holder = append(holder, "session "+*r.AssigneeSessionID)
	}
	if r.Assignee != nil {
		holder = append(holder, "actor "+*r.Assignee)
	}
	if len(holder) > 0 {
		fmt.Fprintf(&b, "; held by %s", strings.Join(holder, ", "))
	}
	if r.LeaseExpiresAt != nil && !r.Review {
		fmt.Fprintf(&b, "; lease until %s", *r.LeaseExpiresAt)
	}
	return b.String()
}
