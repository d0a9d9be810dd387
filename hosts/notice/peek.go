// Package notice tells a session what is new for it in the journal: peek
// once (for a host hook), watch as events land, push typed into a terminal
// agent's tmux pane. wakesource.go is how each finds and reloads the
// session's credential.
package notice

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/hostlink"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/termtext"
)

const peekUsage = `usage: agenttool-collab-mcp peek [--session-file FILE] [--db FILE] [--json] [--hook claude|codex]

Says what is new for a session without reading or moving its cursor: the
number of unread journal events after its persisted cursor, and one line per
event that concerns it (a handoff offered to it, a review requesting changes,
a report addressed to it, an answer to its offer, a lost claim) or lease of
its about to expire. Opens the database read-only. With no session named
it reports on the session the MCP server of the same host conversation
bound (found through the server's host link, nothing to set), and on none
when there is no such server. With --hook, after it printed a notice, it
records that the notice announced the reports and handoffs it names (a
delivery receipt, never a cursor move).

Exit status: 0 when nothing concerns the session, 10 when something does.
Fails open: on any error it prints nothing on stdout, one line on stderr,
and exits 0. With --hook it always exits 0 and prints, only when something
is new, the host hook's JSON carrying one line of additional context.
`

// PeekNew is peek's exit status when something concerns the session.
const PeekNew = 10

// peekBudget bounds one peek; past it, peek fails open.
const peekBudget = 2 * time.Second

// Peek says once what is new for a session; with --hook it reads the host
// hook's JSON from stdin.
func Peek(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := command.NewParser("peek", strings.TrimPrefix(peekUsage, "usage: agenttool-collab-mcp "))
	fs := c.Flags
	file := fs.String("session-file", "", "credential file (default: $AGENTOOL_COLLAB_SESSION_FILE, else the session this host conversation's server linked)")
	db := fs.String("db", "", "database file (default: the one the server would open)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	hook := fs.String("hook", "", "format for a host hook: claude or codex (reads the hook's JSON on stdin)")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	if *hook != "" && *hook != "claude" && *hook != "codex" {
		return c.UsageFailure(stderr, "bad flag value")
	}
	ctx, cancel := context.WithTimeout(ctx, peekBudget)
	defer cancel()
	var in hookInput
	if *hook != "" {
		in = readHookInput(stdin)
	}
	sum, src, err := peekSummary(ctx, *db, *file, hostSeeker(in.SessionID))
	if src != nil {
		defer src.st.Close()
	}
	if err != nil {
		if *hook == "" || err != errNoSession {
			fmt.Fprintf(stderr, "collab peek: nothing checked: %s\n", wakeError(err))
		}
		return 0
	}
	switch {
	case *hook != "":
		if sum.New() && !in.StopHookActive {
			writeHookOutput(stdout, in.Event, sum.Line())
			a := &announcer{src: src, channel: store.ChannelHook}
			a.record(ctx, sum.Notices)
			a.close()
		}
		return 0
	case *asJSON:
		json.NewEncoder(stdout).Encode(sum)
	default:
		printPeek(stdout, sum)
	}
	if sum.New() {
		return PeekNew
	}
	return 0
}

// peekSummary reads what is new for the session; the source it opened
// (nil when none could be) is the caller's to close.
func peekSummary(ctx context.Context, db, file string, seek func() (hostlink.Seeker, bool)) (wake.Summary, *wakeSource, error) {
	src, err := openWakeSource(ctx, db, file, seek)
	if err != nil {
		return wake.Summary{}, nil, err
	}
	snap, err := src.st.WakeForSession(ctx, src.cred, nil, wake.CandidateLimit)
	if err != nil {
		return wake.Summary{}, src, err
	}
	return wake.Summarise(snap, time.Now()), src, nil
}

// wakeError renders an error for stderr: a refusal by its message, anything
// else as it is (store errors name the database, never a credential).
func wakeError(err error) string {
	if ce, ok := collaberr.As(err); ok {
		return ce.Message
	}
	if err == context.DeadlineExceeded {
		return "the check took longer than " + peekBudget.String()
	}
	return err.Error()
}

func printPeek(w io.Writer, s wake.Summary) {
	fmt.Fprintf(w, "%s unread after your cursor (head %d)\n", plural(s.Unread, "event"), s.Head.Sequence)
	for _, n := range s.Notices {
		fmt.Fprintln(w, noticeLine(n))
	}
}

// noticeLine renders one notice on one line, its text escaped for the
// terminal.
func noticeLine(n wake.Notice) string {
	if n.Sequence == 0 {
		return "  " + termtext.Label(n.Text)
	}
	return fmt.Sprintf("  #%d %s", n.Sequence, termtext.Label(n.Text))
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
