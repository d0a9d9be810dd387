package notice

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/termtext"
)

const watchUsage = `usage: agenttool-collab-mcp watch [--session-file FILE] [--db FILE] [--json] [--interval D]

Prints one line per event that concerns the session (a handoff offered to
it, a review requesting changes, a report addressed to it, an answer to its
offer, a lost claim, a lease about to expire) as soon as any process commits
it. It never reads or moves the session's cursor; the agent still calls
collab_next. Changes are detected with SQLite's PRAGMA data_version on one
read-only connection, checked every --interval.

With no session named it waits for the MCP server of the same host
conversation to bind one (found through the server's host link, with
nothing to set), then follows it. It runs until the session ends, its
parent process goes away, or it is interrupted; then it exits 0. Errors go
to stderr only.
`

// awaitWakeSource opens the named session, or, with none named, waits for
// a server of this host conversation to link one (a monitor starts with
// the conversation, before its agent starts a session). It gives up with
// errNoSession when the parent goes away or ctx ends.
func awaitWakeSource(ctx context.Context, db, file string, interval time.Duration, parent int) (*wakeSource, error) {
	if file != "" || os.Getenv(place.EnvSessionFile) != "" {
		return openWakeSource(ctx, db, file, nil)
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		src, err := openWakeSource(ctx, db, "", hostSeeker(""))
		if err != errNoSession {
			return src, err
		}
		select {
		case <-ctx.Done():
			return nil, errNoSession
		case <-tick.C:
		}
		if os.Getppid() != parent {
			return nil, errNoSession
		}
	}
}

// leaseRecheck is how often watch re-reads leases when nothing changes,
// since an approaching expiry commits nothing.
const leaseRecheck = 30 * time.Second

// Watch prints a line per event that concerns the session as it lands.
func Watch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := command.NewParser("watch", strings.TrimPrefix(watchUsage, "usage: agenttool-collab-mcp "))
	fs := c.Flags
	file := fs.String("session-file", "", "credential file (default: $AGENTOOL_COLLAB_SESSION_FILE, else the session this host conversation's server linked)")
	db := fs.String("db", "", "database file (default: the one the server would open)")
	asJSON := fs.Bool("json", false, "print each notice as one JSON object")
	interval := fs.Duration("interval", 200*time.Millisecond, "how often to check for commits")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	if *interval <= 0 {
		return c.UsageFailure(stderr, "bad flag value")
	}
	parent := os.Getppid()
	if parent == 1 {
		fmt.Fprintln(stderr, "collab watch: started without a parent; nothing to report to")
		return 0
	}
	src, err := awaitWakeSource(ctx, *db, *file, *interval, parent)
	if err == errNoSession {
		// A host starts its monitor for every conversation, with a session
		// or not: nothing to watch is no fault.
		fmt.Fprintln(stderr, "collab watch: no session found; nothing to watch")
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "collab watch: %s\n", wakeError(err))
		return 1
	}
	defer src.st.Close()
	p := noticePrinter{out: stdout, json: *asJSON}
	w := &watcher{name: "watch", src: src, diag: stderr, emit: p.print,
		announce: &announcer{src: src, channel: store.ChannelMonitor}}
	defer w.announce.close()
	if err := w.run(ctx, *interval, parent); err != nil && ctx.Err() == nil {
		fmt.Fprintf(stderr, "collab watch: %s\n", wakeError(err))
		return 1
	}
	return 0
}

// watcher follows one session's journal from the head it saw first and
// hands each batch of new notices to emit (watch prints them, push types
// them into a pane). name prefixes its diagnostics.
type watcher struct {
	name   string
	src    *wakeSource
	diag   io.Writer
	emit   func([]wake.Notice)
	follow *wake.Follower
	// announce records the receipts of what this monitor printed.
	announce *announcer
}

// run follows until the session ends, ctx is done or, when parent is not
// 0, the process's parent changes.
func (w *watcher) run(ctx context.Context, interval time.Duration, parent int) error {
	probe, err := w.src.st.NewChangeProbe()
	if err != nil {
		return err
	}
	defer probe.Close()
	last, err := probe.Version(ctx)
	if err != nil {
		return err
	}
	snap, err := w.src.st.WakeForSession(ctx, w.src.cred, nil, 1)
	if err != nil {
		return err
	}
	w.follow = wake.NewFollower(snap.Head.Sequence)
	fmt.Fprintf(w.diag, "collab %s: watching from #%d\n", w.name, w.follow.After())
	if done, err := w.report(ctx); done || err != nil {
		return err
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	lastCheck := time.Now()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if parent != 0 && os.Getppid() != parent {
			return nil
		}
		v, err := probe.Version(ctx)
		if err != nil {
			return err
		}
		if v == last && time.Since(lastCheck) < leaseRecheck {
			continue
		}
		last, lastCheck = v, time.Now()
		if done, err := w.report(ctx); done || err != nil {
			return err
		}
	}
}

// report prints the notices after the watcher's position and moves the
// position (the watcher's own, never the session's cursor). It returns
// done when the session has ended.
func (w *watcher) report(ctx context.Context) (bool, error) {
	after := w.follow.After()
	snap, err := w.src.st.WakeForSession(ctx, w.src.cred, &after, wake.CandidateLimit)
	if collaberr.HasCode(err, collaberr.SessionAuthFailed) {
		// Ending a session or resuming it elsewhere rotates its token: follow
		// a rewritten credential file, else the session is over for us.
		if !w.src.reload() {
			fmt.Fprintf(w.diag, "collab %s: the session ended or was resumed elsewhere; stopping\n", w.name)
			return true, nil
		}
		snap, err = w.src.st.WakeForSession(ctx, w.src.cred, &after, wake.CandidateLimit)
	}
	if err != nil {
		return true, err
	}
	if !snap.Active {
		fmt.Fprintf(w.diag, "collab %s: the session ended; stopping\n", w.name)
		return true, nil
	}
	given := w.follow.Take(snap, time.Now())
	if len(given) > 0 {
		w.emit(given)
	}
	w.announce.record(ctx, given)
	return false, nil
}

// noticePrinter is watch's sink: one line (or JSON object) per notice.
type noticePrinter struct {
	out  io.Writer
	json bool
}

func (w noticePrinter) print(ns []wake.Notice) {
	for _, n := range ns {
		w.printOne(n)
	}
}

func (w noticePrinter) printOne(n wake.Notice) {
	if w.json {
		json.NewEncoder(w.out).Encode(n)
		return
	}
	text := termtext.Label(n.Text)
	if n.Sequence == 0 {
		fmt.Fprintf(w.out, "collab: %s\n", text)
		return
	}
	fmt.Fprintf(w.out, "collab: #%d %s — call collab_next\n", n.Sequence, text)
}
