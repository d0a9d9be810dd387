package setup

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"

	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/stage"
)

// stageCommand implements `host stage DIR`: the npm package's layout with
// this binary as the one platform binary, plus the package's Claude Code
// and Codex marketplaces, which list the folder itself.
func stageCommand(env Env, version string, args []string, stdout, stderr io.Writer) int {
	c := command.NewParser("host stage", "host stage DIR [--from CHECKOUT] [--json]")
	from := c.Flags.String("from", "", "checkout to read the package files from (default: the one around the current folder)")
	asJSON := c.Flags.Bool("json", false, "print what was staged as one JSON object")
	pos, code, done := c.Parse(args, 1, 1, stdout, stderr)
	if done {
		return code
	}
	o := stage.Options{Version: version, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}
	var err error
	if o.Dir, err = filepath.Abs(pos[0]); err != nil {
		return c.Fail(*asJSON, stdout, stderr, 1, err)
	}
	if o.Binary, err = env.Executable(); err != nil {
		return c.Fail(*asJSON, stdout, stderr, 1, fmt.Errorf("find this binary: %w", err))
	}
	o.Checkout = *from
	if o.Checkout == "" {
		cwd, err := env.Cwd()
		if err == nil {
			o.Checkout, err = stage.FindCheckout(cwd)
		}
		if err != nil {
			return c.Fail(*asJSON, stdout, stderr, 1, err)
		}
	}
	if o.Version == "0.0.0-dev" {
		fmt.Fprintln(stderr, "host stage: this binary records no version (go run, -buildvcs=false or a git worktree), so hosts will take a rebuild for the same version; build with go build or go install from a clone to stage a versioned copy")
	}
	res, err := stage.Stage(o)
	if err != nil {
		return c.Fail(*asJSON, stdout, stderr, 1, err)
	}
	if *asJSON {
		command.WriteJSON(stdout, map[string]any{"dir": res.Dir, "version": o.Version, "platform": runtime.GOOS + "/" + runtime.GOARCH, "files": res.Files})
		return 0
	}
	fmt.Fprintf(stdout, "staged agenttool-collab-mcp %s for %s/%s in %s (%d files)\n", o.Version, runtime.GOOS, runtime.GOARCH, res.Dir, len(res.Files))
	for _, host := range []string{"claude", "codex"} {
		cmds, _ := HostCommands(host, true, res.Dir)
		fmt.Fprintf(stdout, "install in %s:\n", map[string]string{"claude": "Claude Code", "codex": "Codex"}[host])
		for _, cmd := range cmds {
			fmt.Fprintln(stdout, "  "+ShellJoin(cmd))
		}
	}
	return 0
}
