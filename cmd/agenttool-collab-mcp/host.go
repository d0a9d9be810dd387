package main

import (
	"context"
	"fmt"
	"io"

	"github.com/agenttool/collab/hosts/hermes"
	"github.com/agenttool/collab/hosts/plugin"
	"github.com/agenttool/collab/hosts/setup"
)

// hostUsage is the synopsis of `host` and its subcommands.
const hostUsage = `host install|uninstall hermes [flags]
       agenttool-collab-mcp host install|uninstall claude|codex [--source DIR|owner/repo]
       agenttool-collab-mcp host stage DIR [--from CHECKOUT] [--json]

  hermes          write or remove the Hermes server entry and skill
  claude, codex   print the host's own commands (they install plugins themselves)
  stage           lay out a local plugin root for this machine from a checkout,
                  which Claude Code and Codex install offline as a marketplace
Run "agenttool-collab-mcp host SUBCOMMAND --help" for its flags.`

// runHost implements `agenttool-collab-mcp host ...`. It exits 0 on
// success, 1 when the change fails and 2 on a usage error.
func runHost(_ context.Context, args []string, stdout, stderr io.Writer) int {
	return hostCommand(setup.ProcessEnv(), args, stdout, stderr)
}

func hostCommand(env setup.Env, args []string, stdout, stderr io.Writer) int {
	top := newCommand("host", hostUsage)
	if len(args) == 0 {
		return top.usageFailure(stderr, "missing subcommand")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		top.printUsage(stdout)
		return 0
	case "stage":
		return stageCommand(env, args[1:], stdout, stderr)
	case "install", "uninstall":
	default:
		return top.usageFailure(stderr, fmt.Sprintf("unknown subcommand %q", args[0]))
	}
	install := args[0] == "install"
	if len(args) < 2 {
		return top.usageFailure(stderr, "missing host (hermes, claude or codex)")
	}
	switch args[1] {
	case "-h", "-help", "--help":
		top.printUsage(stdout)
		return 0
	case "hermes":
		return hermesCommand(env, install, args[2:], stdout, stderr)
	}
	if _, ok := setup.HostCommands(args[1], install, ""); !ok {
		return top.usageFailure(stderr, fmt.Sprintf("unknown host %q", args[1]))
	}
	return printHostCommands(env, args[1], install, args[2:], stdout, stderr)
}

// printHostCommands prints the host CLI's own commands: Claude Code and
// Codex install plugins themselves, so there is nothing to write for them.
func printHostCommands(env setup.Env, host string, install bool, args []string, stdout, stderr io.Writer) int {
	verb := map[bool]string{true: "install", false: "uninstall"}[install]
	c := newCommand("host "+verb+" "+host, "host "+verb+" "+host+" [--source DIR|owner/repo]")
	source := c.flags.String("source", "", "marketplace: a plugin root (see host stage) or owner/repo (default: this binary's plugin root, else "+setup.RepositoryMarketplace+")")
	c.flags.Bool("dry-run", false, "accepted for symmetry with hermes; nothing is written either way")
	if _, code, done := c.parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	if *source == "" {
		*source = setup.DefaultSource(env)
	}
	cmds, _ := setup.HostCommands(host, install, *source)
	fmt.Fprintf(stdout, "# %s installs plugins itself; run:\n", host)
	for _, cmd := range cmds {
		fmt.Fprintln(stdout, setup.ShellJoin(cmd))
	}
	if install && *source == setup.RepositoryMarketplace {
		fmt.Fprintln(stdout, "# this marketplace installs the published npm package; until a release exists, stage a local")
		fmt.Fprintln(stdout, "# plugin root from a checkout instead: agenttool-collab-mcp host stage DIR (see docs/install.md)")
	}
	return 0
}

// hermesCommand writes or removes the Hermes server entry and skill.
func hermesCommand(env setup.Env, install bool, args []string, stdout, stderr io.Writer) int {
	verb := map[bool]string{true: "install", false: "uninstall"}[install]
	c := newCommand("host "+verb+" hermes", "host "+verb+" hermes [--profile P] [--hermes-home DIR] [--db FILE] [--command PATH] [--dry-run]")
	var o setup.HermesOptions
	c.flags.StringVar(&o.Profile, "profile", "", "Hermes profile (profiles/<P> inside the Hermes home)")
	c.flags.StringVar(&o.Home, "hermes-home", "", "Hermes home (default: $HERMES_HOME, else ~/.hermes)")
	c.flags.StringVar(&o.DB, "db", "", "database the entry pins (default: the one this shell resolves)")
	c.flags.StringVar(&o.Command, "command", "", "server binary the entry runs (default: this binary)")
	dryRun := c.flags.Bool("dry-run", false, "show what would change without writing")
	if _, code, done := c.parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	var plan hermes.Plan
	var err error
	if install {
		plan, err = setup.HermesInstall(env, o, stderr)
	} else {
		plan, err = setup.HermesUninstall(env, o)
	}
	if err != nil {
		return c.fail(false, stdout, stderr, 1, err)
	}
	setup.Describe(stdout, plan, *dryRun)
	if *dryRun || !plan.Changed() {
		return 0
	}
	if err := plan.Apply(); err != nil {
		return c.fail(false, stdout, stderr, 1, err)
	}
	for _, ch := range plan.Changes {
		if ch.Backup != "" && !ch.Noop() {
			fmt.Fprintf(stdout, "The previous %s is kept as %s\n", ch.Path, ch.Backup)
		}
	}
	if install {
		fmt.Fprintf(stdout, "Restart Hermes, then check the server with: hermes mcp test %s\n", plugin.Server)
	}
	return 0
}
