package setup

import (
	"fmt"
	"io"

	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/hermes"
	"github.com/agenttool/collab/hosts/plugin"
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

// Command implements `agenttool-collab-mcp host ...` for the process env
// describes; stage records version in the plugin root it lays out. It
// exits 0 on success, 1 when the change fails and 2 on a usage error.
func Command(env Env, version string, args []string, stdout, stderr io.Writer) int {
	top := command.NewParser("host", hostUsage)
	if len(args) == 0 {
		return top.UsageFailure(stderr, "missing subcommand")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		top.PrintUsage(stdout)
		return 0
	case "stage":
		return stageCommand(env, version, args[1:], stdout, stderr)
	case "install", "uninstall":
	default:
		return top.UsageFailure(stderr, fmt.Sprintf("unknown subcommand %q", args[0]))
	}
	install := args[0] == "install"
	if len(args) < 2 {
		return top.UsageFailure(stderr, "missing host (hermes, claude or codex)")
	}
	switch args[1] {
	case "-h", "-help", "--help":
		top.PrintUsage(stdout)
		return 0
	case "hermes":
		return hermesCommand(env, install, args[2:], stdout, stderr)
	}
	if _, ok := HostCommands(args[1], install, ""); !ok {
		return top.UsageFailure(stderr, fmt.Sprintf("unknown host %q", args[1]))
	}
	return printHostCommands(env, args[1], install, args[2:], stdout, stderr)
}

// printHostCommands prints the host CLI's own commands: Claude Code and
// Codex install plugins themselves, so there is nothing to write for them.
func printHostCommands(env Env, host string, install bool, args []string, stdout, stderr io.Writer) int {
	verb := map[bool]string{true: "install", false: "uninstall"}[install]
	c := command.NewParser("host "+verb+" "+host, "host "+verb+" "+host+" [--source DIR|owner/repo]")
	source := c.Flags.String("source", "", "marketplace: a plugin root (see host stage) or owner/repo (default: this binary's plugin root, else "+RepositoryMarketplace+")")
	c.Flags.Bool("dry-run", false, "accepted for symmetry with hermes; nothing is written either way")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	if *source == "" {
		*source = DefaultSource(env)
	}
	cmds, _ := HostCommands(host, install, *source)
	fmt.Fprintf(stdout, "# %s installs plugins itself; run:\n", host)
	for _, cmd := range cmds {
		fmt.Fprintln(stdout, ShellJoin(cmd))
	}
	if install && *source == RepositoryMarketplace {
		fmt.Fprintln(stdout, "# this marketplace installs the published npm package; until a release exists, stage a local")
		fmt.Fprintln(stdout, "# plugin root from a checkout instead: agenttool-collab-mcp host stage DIR (see docs/install.md)")
	}
	return 0
}

// hermesCommand writes or removes the Hermes server entry and skill.
func hermesCommand(env Env, install bool, args []string, stdout, stderr io.Writer) int {
	verb := map[bool]string{true: "install", false: "uninstall"}[install]
	c := command.NewParser("host "+verb+" hermes", "host "+verb+" hermes [--profile P] [--hermes-home DIR] [--db FILE] [--command PATH] [--dry-run]")
	var o HermesOptions
	c.Flags.StringVar(&o.Profile, "profile", "", "Hermes profile (profiles/<P> inside the Hermes home)")
	c.Flags.StringVar(&o.Home, "hermes-home", "", "Hermes home (default: $HERMES_HOME, else ~/.hermes)")
	c.Flags.StringVar(&o.DB, "db", "", "database the entry pins (default: the one this shell resolves)")
	c.Flags.StringVar(&o.Command, "command", "", "server binary the entry runs (default: this binary)")
	dryRun := c.Flags.Bool("dry-run", false, "show what would change without writing")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	var plan hermes.Plan
	var err error
	if install {
		plan, err = HermesInstall(env, o, stderr)
	} else {
		plan, err = HermesUninstall(env, o)
	}
	if err != nil {
		return c.Fail(false, stdout, stderr, 1, err)
	}
	Describe(stdout, plan, *dryRun)
	if *dryRun || !plan.Changed() {
		return 0
	}
	if err := plan.Apply(); err != nil {
		return c.Fail(false, stdout, stderr, 1, err)
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
