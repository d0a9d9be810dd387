package notice

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/agenttool/collab/core/normalize"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/tmux"
)

const pushUsage = `usage: agenttool-collab-mcp push --tmux PANE [--tmux-socket PATH] [--session-file FILE] [--db FILE]
       [--from LABEL]... [--command NAME]... [--debounce D] [--interval D] [--enter-delay D]

Types one line into a tmux pane when something concerns the session (the
events watch prints), for terminal agents without hooks or channels: Codex's
TUI, aider, any CLI in tmux. Notices that arrive close together are
coalesced: the line is typed once --debounce has passed with nothing new
(at most 5 x --debounce after the first). The line always starts with
"collab:", so it never runs a slash command; it is pasted as a bracketed
paste and followed by a separate Enter.

Nothing is typed while the pane's foreground program is a shell (it would
run as a command) or, with --command, any program not named; those
notices are dropped and logged. While the pane is in copy mode the line
waits. --from keeps only notices from those actor labels (labels are chosen
by each session: this filters noise, it does not authenticate).

It never reads or moves the session's cursor. It runs until the session
ends, the pane goes away, or it is interrupted (SIGINT, SIGTERM); then it
exits 0. What it did goes to stderr, one line each.
`

// pushOptions are push's settings after parsing.
type pushOptions struct {
	pane, socket, file, db string
	from, commands         map[string]bool
	debounce, interval     time.Duration
	enterDelay             time.Duration
}

// Push types one coalesced notice per burst into a terminal agent's tmux pane.
func Push(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, code, done := parsePush(args, stdout, stderr)
	if done {
		return code
	}
	// push is started by a person beside the agent, not by the host, so the
	// session is the one named (flag or variable); no host link is sought.
	src, err := openWakeSource(ctx, o.db, o.file, nil)
	if err != nil {
		fmt.Fprintf(stderr, "collab push: %s\n", wakeError(err))
		return 1
	}
	defer src.st.Close()
	pane, err := tmux.Server{Socket: o.socket}.Resolve(ctx, o.pane)
	if err != nil {
		fmt.Fprintf(stderr, "collab push: no tmux pane %s: %v\n", o.pane, err)
		return 1
	}
	p := &pusher{o: o, pane: pane, diag: stderr, scrub: scrubber(src)}
	if err := p.run(ctx, src); err != nil {
		fmt.Fprintf(stderr, "collab push: %s\n", wakeError(err))
		return 1
	}
	return 0
}

// parsePush reads push's flags; done is true when the caller must return
// code (help, or a bad flag, exit 2).
func parsePush(args []string, stdout, stderr io.Writer) (pushOptions, int, bool) {
	c := command.NewParser("push", strings.TrimPrefix(pushUsage, "usage: agenttool-collab-mcp "))
	fs := c.Flags
	o := pushOptions{from: map[string]bool{}, commands: map[string]bool{}}
	fs.StringVar(&o.pane, "tmux", "", "the tmux pane to type into (%N, session:window.pane, ...)")
	fs.StringVar(&o.socket, "tmux-socket", "", "the tmux server's socket (tmux -S; default: the server tmux would pick)")
	fs.StringVar(&o.file, "session-file", "", "credential file (default: $AGENTOOL_COLLAB_SESSION_FILE)")
	fs.StringVar(&o.db, "db", "", "database file (default: the one the server would open)")
	fs.Func("from", "type only notices from this actor label (repeatable)", func(v string) error {
		label, err := normalize.Actor(v)
		if err != nil {
			return err
		}
		o.from[label] = true
		return nil
	})
	fs.Func("command", "type only while the pane's foreground program has this name (repeatable)", func(v string) error {
		if v == "" || tmux.IsShell(v) {
			return fmt.Errorf("%q cannot be allowed: push never types into a shell", v)
		}
		o.commands[v] = true
		return nil
	})
	fs.DurationVar(&o.debounce, "debounce", 250*time.Millisecond, "quiet time that ends a burst of notices")
	fs.DurationVar(&o.interval, "interval", 100*time.Millisecond, "how often to check for commits")
	fs.DurationVar(&o.enterDelay, "enter-delay", 100*time.Millisecond, "pause between the paste and its Enter")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return o, code, true
	}
	switch {
	case o.pane == "":
		return o, c.UsageFailure(stderr, "--tmux PANE is required"), true
	case o.debounce < 0 || o.interval <= 0 || o.enterDelay < 0 || o.enterDelay > 5*time.Second:
		return o, c.UsageFailure(stderr, "bad flag value"), true
	}
	return o, 0, false
}

// scrubber keeps the credential directory and the session's own token out
// of a line, whatever another agent wrote (every other token-shaped word
// is already redacted in the notice by core/wake).
func scrubber(src *wakeSource) func(string) string {
	dir := filepath.Dir(src.file)
	return func(s string) string {
		if dir != "" && dir != "." {
			s = strings.ReplaceAll(s, dir, "<credential-dir>")
		}
		if tok := src.cred.Token; tok != "" {
			s = strings.ReplaceAll(s, tok, "<redacted>")
		}
		return s
	}
}
