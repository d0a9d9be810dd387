package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/agenttool/collab/hosts/hermes"
	"github.com/agenttool/collab/hosts/plugin"
	"github.com/agenttool/collab/hosts/setup"
)

// hostUsage is printed for a malformed `host` command.
const hostUsage = `usage: agenttool-collab-mcp host install|uninstall HOST [flags]
  hermes          [--profile P] [--hermes-home DIR] [--dry-run] [--db FILE] [--command PATH]
  claude, codex   [--source DIR|owner/repo]   prints the host's own commands
`

// runHost implements `agenttool-collab-mcp host install|uninstall <host>`.
// It exits 0 on success, 1 when the change fails and 2 on a usage error.
func runHost(_ context.Context, args []string, stdout, stderr io.Writer) int {
	return hostCommand(setup.ProcessEnv(), args, stdout, stderr)
}

func hostCommand(env setup.Env, args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 || (args[0] != "install" && args[0] != "uninstall") {
		fmt.Fprint(stderr, hostUsage)
		return 2
	}
	install := args[0] == "install"
	if args[1] == "hermes" {
		return hermesCommand(env, install, args[2:], stdout, stderr)
	}
	if _, ok := setup.HostCommands(args[1], install, ""); !ok {
		fmt.Fprintf(stderr, "host: unknown host %q\n%s", args[1], hostUsage)
		return 2
	}
	return printHostCommands(env, args[1], install, args[2:], stdout, stderr)
}

// printHostCommands prints the host CLI's own commands: Claude Code and
// Codex install plugins themselves, so there is nothing to write for them.
func printHostCommands(env setup.Env, host string, install bool, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("host "+host, flag.ContinueOnError)
	fs.SetOutput(stderr)
	source := fs.String("source", "", "marketplace: a package folder or owner/repo (default: this binary's package, else "+setup.RepositoryMarketplace+")")
	fs.Bool("dry-run", false, "accepted for symmetry with hermes; nothing is written either way")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return 2
	}
	if *source == "" {
		*source = setup.DefaultSource(env)
	}
	cmds, _ := setup.HostCommands(host, install, *source)
	fmt.Fprintf(stdout, "# %s installs plugins itself; run:\n", host)
	for _, c := range cmds {
		fmt.Fprintln(stdout, setup.ShellJoin(c))
	}
	return 0
}

// hermesCommand writes or removes the Hermes server entry and skill.
func hermesCommand(env setup.Env, install bool, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("host hermes", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o setup.HermesOptions
	fs.StringVar(&o.Profile, "profile", "", "Hermes profile (profiles/<P> inside the Hermes home)")
	fs.StringVar(&o.Home, "hermes-home", "", "Hermes home (default: $HERMES_HOME, else ~/.hermes)")
	fs.StringVar(&o.DB, "db", "", "database the entry pins (default: the one this shell resolves)")
	fs.StringVar(&o.Command, "command", "", "server binary the entry runs (default: this binary)")
	dryRun := fs.Bool("dry-run", false, "show what would change without writing")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return 2
	}
	var plan hermes.Plan
	var err error
	if install {
		plan, err = setup.HermesInstall(env, o, stderr)
	} else {
		plan, err = setup.HermesUninstall(env, o)
	}
	if err != nil {
		return fail(stderr, err)
	}
	setup.Describe(stdout, plan, *dryRun)
	if *dryRun || !plan.Changed() {
		return 0
	}
	if err := plan.Apply(); err != nil {
		return fail(stderr, err)
	}
	if install {
		fmt.Fprintf(stdout, "Restart Hermes, then check the server with: hermes mcp test %s\n", plugin.Server)
	}
	return 0
}
