package program

import (
	"context"

	"github.com/agenttool/collab/hosts/cli"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/demo"
	"github.com/agenttool/collab/hosts/doctor"
	"github.com/agenttool/collab/hosts/find"
	"github.com/agenttool/collab/hosts/githooks"
	"github.com/agenttool/collab/hosts/journals"
	"github.com/agenttool/collab/hosts/notice"
	"github.com/agenttool/collab/hosts/serve"
	"github.com/agenttool/collab/hosts/setup"
	"github.com/agenttool/collab/hosts/web"
)

// Commands is every subcommand, in the order the program's usage lists
// them; version is what the binary reports (serve, doctor and host stage
// record it). It is the one list dispatch, help, the usage text and
// unknown-command suggestions read. The bare invocation (serve MCP over
// stdio) and the --version and --help flags are the program's own, not
// commands (see Run).
func Commands(version string) []command.Command {
	return []command.Command{
		{Name: "serve", Usage: `  agenttool-collab-mcp serve [--http HOST:PORT] [--tls-cert F --tls-key F] [--no-auth-on-loopback]
                                    serve many clients over Streamable HTTP (default 127.0.0.1:7777/mcp)
`,
			Run: func(ctx context.Context, s command.IO, args []string) error {
				return command.Exit(serve.HTTP(ctx, version, args, s.Stdout, s.Stderr))
			}},
		{Name: "token", Usage: `  agenttool-collab-mcp token add NAME [--expires D] | list | revoke NAME
                                    manage the bearer tokens of serve (see docs/remote.md)
`,
			Run: command.Func(serve.Tokens)},
		{Name: "demo", Usage: `  agenttool-collab-mcp demo [--json] [--keep DIR]
                                    watch three agents coordinate (start here)
`,
			Run: command.Func(demo.Command)},
		{Name: "help", Usage: `  agenttool-collab-mcp --version    print the version
  agenttool-collab-mcp --help       print this help
  agenttool-collab-mcp help COMMAND print a command's usage (also: COMMAND --help)
`,
			Run: func(ctx context.Context, s command.IO, args []string) error {
				return help(ctx, version, s, args)
			}},
		{Name: "verify", Usage: `  agenttool-collab-mcp verify [--db FILE] [--json]
                                    check every journal of a database without changing it
`,
			Run: command.Func(journals.Verify)},
		{Name: "copy", Usage: `  agenttool-collab-mcp copy --from SOURCE --to TARGET [--replace] [--json]
                                    move whole journals between a SQLite file and PostgreSQL
                                    (either way), every chain verified on both sides; refuses a
                                    target that holds a journal unless --replace
`,
			Run: command.Func(journals.Copy)},
		{Name: "doctor", Usage: `  agenttool-collab-mcp doctor [--json] [--plugin-root DIR]
                                    show which database each host would open and whether
                                    they agree; exit 1 when something needs doing
`,
			Run: func(ctx context.Context, s command.IO, args []string) error {
				return command.Exit(doctor.Command(ctx, version, args, s.Stdout, s.Stderr))
			}},
		{Name: "search", Usage: `  agenttool-collab-mcp search QUERY... [--db FILE] [--json] [--rebuild] [filters]
                                    full-text search of everything in the journal
`,
			Run: command.Func(find.Search)},
		{Name: "host", Usage: `  agenttool-collab-mcp host install|uninstall hermes [--profile P] [--hermes-home DIR] [--dry-run]
                                    add or remove the Hermes server entry and skill
  agenttool-collab-mcp host install|uninstall claude|codex
                                    print the Claude Code or Codex commands that do it
  agenttool-collab-mcp host stage DIR
                                    from a checkout: lay out a local plugin root for this
                                    machine that Claude Code and Codex install offline
`,
			Run: func(ctx context.Context, s command.IO, args []string) error {
				return command.Exit(setup.Command(setup.ProcessEnv(), version, args, s.Stdout, s.Stderr))
			}},
		{Name: "guard", Usage: `  agenttool-collab-mcp guard install|uninstall|status [--mode warn|block] [--pre-push]
                                    warn about (or block) commits over paths another session claims
`,
			Run: func(ctx context.Context, s command.IO, args []string) error {
				return command.Exit(githooks.Guard(ctx, args, s.Stdin, s.Stdout, s.Stderr))
			}},
		{Name: "status", Usage: `  agenttool-collab-mcp status|tail|tasks|show|reports|decisions|sessions|handoffs ...
                                    read the journal (see: collab, or docs/cli.md)
`,
			Run: command.Func(cli.Status)},
		{Name: "tail", Usage: "",
			Run: command.Func(cli.Tail)},
		{Name: "tasks", Usage: "",
			Run: command.Func(cli.Tasks)},
		{Name: "show", Usage: "",
			Run: command.Func(cli.Show)},
		{Name: "reports", Usage: "",
			Run: command.Func(cli.Reports)},
		{Name: "decisions", Usage: "",
			Run: command.Func(cli.Decisions)},
		{Name: "sessions", Usage: "",
			Run: command.Func(cli.Sessions)},
		{Name: "handoffs", Usage: "",
			Run: command.Func(cli.Handoffs)},
		{Name: "post", Usage: `  agenttool-collab-mcp post|decide|review|task|handoff|whoami|logout ...
                                    act as a person through a session of your own
`,
			Run: command.Func(cli.Post)},
		{Name: "decide", Usage: "",
			Run: command.Func(cli.Decide)},
		{Name: "review", Usage: "",
			Run: command.Func(cli.Review)},
		{Name: "task", Usage: "",
			Run: func(ctx context.Context, s command.IO, args []string) error {
				return command.Exit(cli.Task(ctx, args, s.Stdin, s.Stdout, s.Stderr))
			}},
		{Name: "handoff", Usage: "",
			Run: func(ctx context.Context, s command.IO, args []string) error {
				return command.Exit(cli.Handoff(ctx, args, s.Stdin, s.Stdout, s.Stderr))
			}},
		{Name: "whoami", Usage: "",
			Run: command.Func(cli.Whoami)},
		{Name: "logout", Usage: "",
			Run: command.Func(cli.Logout)},
		{Name: "independence", Usage: `  agenttool-collab-mcp independence claim|release|list ...
                                    verify a task, report thread or #topic blind (docs/independence.md)
`,
			Run: command.Func(cli.Independence)},
		{Name: "web", Usage: `  agenttool-collab-mcp web [--addr 127.0.0.1:8484] [--db FILE] [--open] [--act] [--allow-remote]
                                    serve a live, read-only web view of the journal;
                                    --act adds a page to post, decide, review and hand off as yourself
`,
			Run: command.Func(web.Command)},
		{Name: "peek", Usage: `  agenttool-collab-mcp peek [--session-file FILE] [--json] [--hook claude|codex]
                                    what is new for a session, without moving its cursor;
                                    exit 10 when something concerns it, 0 otherwise (fails open)
`,
			Run: func(ctx context.Context, s command.IO, args []string) error {
				return command.Exit(notice.Peek(ctx, args, s.Stdin, s.Stdout, s.Stderr))
			}},
		{Name: "watch", Usage: `  agenttool-collab-mcp watch [--session-file FILE] [--json]
                                    print a line per event that concerns the session as it lands
`,
			Run: command.Func(notice.Watch)},
		{Name: "push", Usage: `  agenttool-collab-mcp push --tmux PANE [--session-file FILE] [--from LABEL]... [--debounce D]
                                    type one coalesced notice into a terminal agent's tmux pane
`,
			Run: command.Func(notice.Push)},
	}
}
