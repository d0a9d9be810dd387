package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"

	"github.com/agenttool/collab/hosts/command"
)

// Command runs the scripted three-agent demo against real server
// processes of this binary. Exit 0 when every step behaved as scripted,
// 1 when one did not, 2 on bad usage or when it could not start.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := command.NewParser("demo", "demo [--json] [--keep DIR]\n\nRuns three agents, each a real server process of this binary, through a scripted coordination.")
	asJSON := c.Flags.Bool("json", false, "print the transcript as one JSON object instead of the narrative")
	keep := c.Flags.String("keep", "", "keep the repository and database in `DIR` (new or empty)")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(stderr, "✖ cannot find this program's own path to start the agents: %v\n", err)
		return 2
	}
	opts := Options{Server: []string{exe}, Keep: *keep, Again: Again(os.Args[0], exe, exec.LookPath, SameFile)}
	if !*asJSON {
		opts.Out = stdout
		opts.Color = command.ColorFor(stdout)
	}
	tr, err := Run(ctx, opts)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(tr)
	}
	if err != nil {
		if !*asJSON {
			fmt.Fprintf(stderr, "✖ %v\n", err)
		}
		return 1
	}
	return 0
}
