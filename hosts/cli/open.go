package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/termtext"
)

// common holds the flags every command shares.
type common struct {
	db        string
	workspace string
	root      string
	json      bool
	// ids shows session ids beside the labels text output prints.
	ids bool
	// args are the positional arguments, in order.
	args []string
	// names are the flags that name a session, resolved by open.
	names []*sessionName
}

// newFlags returns a flag set for command name with the shared flags. Its
// usage goes to stdout when asked for (-h, --help) and to stderr after a
// malformed command line, as every subcommand of the binary does.
func newFlags(name, usage string, stdout, stderr io.Writer) (*flag.FlagSet, *common) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	complaint := &noticing{w: stderr}
	fs.SetOutput(complaint)
	c := &common{}
	fs.StringVar(&c.db, "db", "", "database `FILE` (default: the one the server would open)")
	fs.StringVar(&c.workspace, "workspace", "", "workspace `W`: its name, id (or a prefix) or any directory inside it (default: the one holding --root)")
	fs.StringVar(&c.root, "root", "", "repository `DIR` whose workspace to show (default: the current directory)")
	fs.BoolVar(&c.json, "json", false, "print JSON for scripts (ids and labels both)")
	fs.BoolVar(&c.ids, "ids", false, "show session ids beside actor labels")
	fs.Usage = func() {
		out := stdout
		if complaint.wrote {
			out = stderr
		}
		fmt.Fprintf(out, "usage: %s %s\n", ProgramName(), usage)
		fs.SetOutput(out)
		fs.PrintDefaults()
		fs.SetOutput(complaint)
	}
	return fs, c
}

// noticing forwards writes and remembers that there were any: the flag
// package writes to its output only to complain.
type noticing struct {
	w     io.Writer
	wrote bool
}

func (n *noticing) Write(p []byte) (int, error) {
	n.wrote = true
	return n.w.Write(p)
}

// ProgramName is the name this process was run under (command.ProgramName).
func ProgramName() string { return command.ProgramName() }

// problem is an error a person can act on: what went wrong and the fix.
type problem struct {
	what, fix string
	code      int
	// refusal is the store's refusal code (session_not_found, ...), ""
	// for a problem of the command line or the files.
	refusal string
}

func (p *problem) Error() string { return p.what + "; " + p.fix }

// report prints err on stderr and returns the exit status it calls for.
func report(stderr io.Writer, err error) int {
	var p *problem
	if errors.As(err, &p) {
		fmt.Fprintf(stderr, "✖ %s\n  fix: %s\n", termtext.Body(p.what), termtext.Body(p.fix))
		return p.code
	}
	fmt.Fprintf(stderr, "✖ %s\n", termtext.Body(err.Error()))
	return ExitRefused
}

// fail reports err in the command's output mode and returns the exit
// status it calls for: with --json one object on stdout, {"error": what,
// "code": the refusal code when the store refused, "fix": what to do},
// as every subcommand's Parser.Fail answers; otherwise report's text on
// stderr.
func (c *common) fail(stdout, stderr io.Writer, err error) int {
	if !c.json {
		return report(stderr, err)
	}
	code := report(io.Discard, err)
	out := struct {
		Error string `json:"error"`
		Code  string `json:"code,omitempty"`
		Fix   string `json:"fix,omitempty"`
	}{Error: err.Error()}
	var p *problem
	if errors.As(err, &p) {
		out.Error, out.Code, out.Fix = p.what, p.refusal, p.fix
	}
	newPrinter(stdout).json(out)
	return code
}

// view is one opened database and the workspace a command looks at.
type view struct {
	st   *store.Store
	path string
	ws   store.Workspace
}

// databasePath resolves --db or the server's default.
func (c *common) databasePath() (string, error) {
	if c.db != "" {
		return c.db, nil
	}
	choice, err := place.Database(place.OS())
	if err != nil {
		return "", &problem{what: "cannot tell which database to open: " + err.Error(), fix: "pass --db FILE or set AGENTOOL_COLLAB_DB", code: ExitUsage}
	}
	return choice.Path, nil
}

// open opens the database read-only (never creating or migrating it) and
// selects the workspace.
func (c *common) open(ctx context.Context) (*view, error) {
	path, err := c.databasePath()
	if err != nil {
		return nil, err
	}
	shown := place.Shown(path)
	if place.IsPostgres(path) {
		// A server: the read-only Open below creates nothing and says why it fails.
	} else if _, err := os.Stat(path); err != nil {
		return nil, &problem{what: "no database at " + path, fix: "pass --db FILE, or run the demo (collab demo --keep DIR) to make one", code: ExitUsage}
	}
	st, err := backend.Open(ctx, backend.Options{Path: path, ReadOnly: true})
	if err != nil {
		return nil, &problem{what: "cannot read " + shown + ": " + err.Error(),
			fix: "if it needs migration, start the server once (agenttool-collab-mcp) to migrate it; check with `agenttool-collab-mcp doctor`", code: ExitUsage}
	}
	v := &view{st: st, path: path}
	if old, err := st.NeedsMigration(ctx); err != nil || old {
		st.Close()
		return nil, &problem{what: path + " uses an older schema that these read-only commands do not migrate",
			fix: "start the server on it once (AGENTOOL_COLLAB_DB=" + path + " agenttool-collab-mcp </dev/null) to migrate it, after a backup if you like", code: ExitUsage}
	}
	if err := c.pick(ctx, v); err != nil {
		st.Close()
		return nil, err
	}
	if err := c.resolveNames(ctx, v); err != nil {
		st.Close()
		return nil, err
	}
	return v, nil
}

// pick selects --workspace (a name, an id or a prefix of one, or a
// directory inside it), else the workspace whose root or a worktree's
// holds --root (or the current directory), else the only workspace there
// is.
func (c *common) pick(ctx context.Context, v *view) error {
	if c.workspace != "" {
		ws, err := v.st.ResolveWorkspace(ctx, c.workspace, directoryNamed(c.workspace))
		var un *store.UnresolvedWorkspace
		if errors.As(err, &un) {
			return unresolvedWorkspace(un, place.Shown(v.path))
		}
		if err != nil {
			return err
		}
		v.ws = ws
		return nil
	}
	root := c.root
	if root == "" {
		root, _ = os.Getwd()
	}
	dir := directoryNamed(root)
	if dir == "" {
		dir, _ = filepath.Abs(root)
	}
	ws, found, err := v.st.WorkspaceHolding(ctx, dir)
	var un *store.UnresolvedWorkspace
	switch {
	case errors.As(err, &un):
		return unresolvedWorkspace(un, place.Shown(v.path))
	case err != nil:
		return err
	case found:
		v.ws = ws
		return nil
	}
	all, err := v.st.Workspaces(ctx)
	if err != nil {
		return err
	}
	// In id order, as they were always offered; listing them reads no
	// journal (a command that verifies one does so itself, once).
	slices.SortFunc(all, func(a, b store.Workspace) int { return strings.Compare(a.ID, b.ID) })
	switch {
	case len(all) == 1 && c.root == "":
		v.ws = all[0]
		return nil
	case len(all) == 0:
		return &problem{what: place.Shown(v.path) + " holds no workspace yet", fix: "start an agent session in a repository first", code: ExitUsage}
	}
	var names []string
	for _, ws := range all {
		names = append(names, ws.Name+" ("+ws.RootPath+")")
	}
	return &problem{what: "no workspace of " + place.Shown(v.path) + " holds " + dir,
		fix: "pass --workspace NAME or --root DIR; workspaces: " + strings.Join(names, ", "), code: ExitUsage}
}

// directoryNamed is the absolute, symlink-free directory path names on
// this machine, "" when it names none.
func directoryNamed(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return ""
	}
	return abs
}

// unresolvedWorkspace is the problem a refused --workspace makes: the
// candidates one per line and what to type instead.
func unresolvedWorkspace(un *store.UnresolvedWorkspace, db string) error {
	var what strings.Builder
	if un.Ambiguous {
		fmt.Fprintf(&what, "--workspace %q names %d workspaces of %s:", un.Typed, len(un.Candidates), db)
	} else {
		fmt.Fprintf(&what, "no workspace of %s is named, identified or rooted at %q; the workspaces are:", db, un.Typed)
	}
	for _, c := range un.Candidates {
		fmt.Fprintf(&what, "\n    %s", c)
	}
	fix := "pass --workspace with a name only one workspace bears, an id from the list, or a directory inside the repository"
	if len(un.Candidates) == 0 {
		what.WriteString(" none")
		fix = "start an agent session in a repository first"
	}
	return &problem{what: what.String(), fix: fix, code: ExitUsage}
}

// parse parses flags that may come before or after positional arguments
// (command.Positional); the positional arguments are kept in c.args.
func parse(fs *flag.FlagSet, c *common, args []string) error {
	pos, err := command.Positional(fs, args)
	if err != nil {
		return err
	}
	c.args = pos
	return nil
}
