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
	subcommands["handoffs"] = cli.Handoffs
	subcommands["post"] = cli.Post
	subcommands["decide"] = cli.Decide
	subcommands["review"] = cli.Review
	subcommands["handoff"] = cli.Handoff
	subcommands["whoami"] = cli.Whoami
	subcommands["logout"] = cli.Logout
}
