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
	// args are the positional arguments, in order.
	args []string
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
	fs.StringVar(&c.workspace, "workspace", "", "workspace `ID` (default: the one whose root holds --root)")
	fs.StringVar(&c.root, "root", "", "repository `DIR` whose workspace to show (default: the current directory)")
	fs.BoolVar(&c.json, "json", false, "print JSON for scripts")
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
	return v, nil
}

// pick selects --workspace, else the workspace whose root holds --root
// (or the current directory), else the only workspace there is.
func (c *common) pick(ctx context.Context, v *view) error {
	if c.workspace != "" {
		ws, err := v.st.Workspace(ctx, c.workspace)
		if err != nil {
			return &problem{what: "no workspace " + c.workspace + " in " + place.Shown(v.path), fix: "list them with `collab status --db FILE`", code: ExitUsage}
		}
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
	root := c.root
	if root == "" {
		root, _ = os.Getwd()
	}
	root, _ = filepath.Abs(root)
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	var list []store.Workspace
	for _, ws := range all {
		list = append(list, ws)
		if ws.RootPath == root || strings.HasPrefix(root, ws.RootPath+string(filepath.Separator)) {
			v.ws = ws
			return nil
		}
	}
	switch {
	case len(list) == 1 && c.root == "":
		v.ws = list[0]
		return nil
	case len(list) == 0:
		return &problem{what: place.Shown(v.path) + " holds no workspace yet", fix: "start an agent session in a repository first", code: ExitUsage}
	}
	var names []string
	for _, ws := range list {
		names = append(names, ws.ID+" ("+ws.RootPath+")")
	}
	return &problem{what: "no workspace of " + place.Shown(v.path) + " holds " + root,
		fix: "pass --workspace ID or --root DIR; workspaces: " + strings.Join(names, ", "), code: ExitUsage}
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
