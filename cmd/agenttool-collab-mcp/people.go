package main

import "github.com/agenttool/collab/hosts/cli"

// The people's commands live in hosts/cli; each is registered here under
// its name, so dispatch stays in this package and behaviour in that one.
func init() {
	subcommands["status"] = cli.Status
	subcommands["tail"] = cli.Tail
	subcommands["tasks"] = cli.Tasks
	subcommands["show"] = cli.Show
	subcommands["reports"] = cli.Reports
	subcommands["decisions"] = cli.Decisions
	subcommands["sessions"] = cli.Sessions
}
