package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/agenttool/collab/core/store"
)

// followInterval is how often `tail -f` looks at the journal head: one
// indexed single-row read, so an idle follower costs next to nothing and a
// write by another process shows within a second.
const followInterval = 200 * time.Millisecond

// tailFilter selects the events `tail` prints.
type tailFilter struct {
	kind, actor string
	// session, when given, keeps the events one session appended.
	session *sessionName
}

func (f tailFilter) match(e store.EventView) bool {
	if f.kind != "" && e.Type != f.kind && !strings.HasPrefix(e.Type, f.kind+".") {
		return false
	}
	if f.session.Given() && (e.SessionID == nil || *e.SessionID != f.session.ID()) {
		return false
	}
	return f.actor == "" || e.Actor == f.actor
}

// Tail prints journal events, one line each, and with -f keeps printing
// new ones as other processes append them. It only reads: no cursor is
// read or advanced, so it never disturbs any session.
func Tail(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("tail", "tail [-f] [--since SEQ] [--kind K] [--actor A] [--session NAME] [--db FILE] [--root DIR | --workspace W] [--ids] [--json]", stdout, stderr)
	follow := fs.Bool("f", false, "keep printing events as they are appended (Ctrl-C stops)")
	since := fs.Int64("since", 0, "print events after sequence `SEQ`")
	var f tailFilter
	fs.StringVar(&f.kind, "kind", "", "only events of type `K` (exact, or a prefix such as task)")
	fs.StringVar(&f.actor, "actor", "", "only events by actor label `A` (every session bearing it)")
	f.session = c.sessionFlag(fs, "session", "only events appended by session `NAME`: an actor label, a short id or an id")
	if err := fs.Parse(args); err != nil {
		return UsageExit(err)
	}
	v, err := c.open(ctx)
	if err != nil {
		return c.fail(stdout, stderr, err)
	}
	defer v.st.Close()
	p := newPrinter(stdout)
	after := *since
	for {
		next, err := printEvents(ctx, v, p, c, f, after)
		if err != nil {
			return c.fail(stdout, stderr, err)
		}
		after = next
		if !*follow {
			return ExitOK
		}
		if err := waitForHead(ctx, v, after); err != nil {
			return ExitOK // interrupted: a normal way to stop following
		}
	}
}

// printEvents prints every event after `after` and returns the last
// sequence seen.
func printEvents(ctx context.Context, v *view, p *printer, c *common, f tailFilter, after int64) (int64, error) {
	var titles map[string]string
	for {
		page, err := v.st.EventsSince(ctx, v.ws.ID, &after, nil, 500)
		if err != nil {
			return after, fmt.Errorf("read the journal: %w", err)
		}
		hide, err := v.withholding(ctx)
		if err != nil {
			return after, err
		}
		page = hide.Page(page)
		for _, e := range page.Events {
			after = e.Sequence
			if !f.match(e) {
				continue
			}
			if c.json {
				b, err := e.MarshalJSON()
				if err != nil {
					return after, err
				}
				fmt.Fprintf(p.w, "%s\n", b)
			} else {
				if titles == nil || (strings.HasPrefix(e.Type, "task.") && titles[e.EntityID] == "") {
					if titles, err = taskTitles(ctx, v); err != nil {
						return after, err
					}
				}
				p.line("%s", eventLine(p, e, titles, c.ids))
			}
		}
		if !page.HasMore || len(page.Events) == 0 {
			return after, nil
		}
	}
}

// waitForHead returns once the workspace head passes after, or ctx ends.
func waitForHead(ctx context.Context, v *view, after int64) error {
	tick := time.NewTicker(followInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
		ws, err := v.st.Workspace(ctx, v.ws.ID)
		if err != nil {
			return err
		}
		if ws.EventHeadSequence > after {
			return nil
		}
	}
}

// eventLine renders one event as a readable line, its text escaped: what
// the event recorded (eventSummary) in place of its entity id, which
// stands alone only when the payload says nothing more. With ids, the
// session that appended it follows its actor.
func eventLine(p *printer, e store.EventView, titles map[string]string, ids bool) shown {
	what := oneLine(eventSummary(e.Type, e.EntityID, e.PayloadJSON, titles), summaryWidth)
	if what == "" {
		what = e.EntityID
	}
	actor := e.Actor
	if ids && e.SessionID != nil {
		actor += " (" + *e.SessionID + ")"
	}
	return safef("%5d  %s  %-10s %s %s", e.Sequence, shortTime(e.OccurredAt), actor, p.paint("36", fmt.Sprintf("%-24s", e.Type)), what)
}

// taskTitles maps the workspace's task ids to their titles, for the task
// events whose payload names no title.
func taskTitles(ctx context.Context, v *view) (map[string]string, error) {
	tasks, err := v.st.ListTasks(ctx, v.ws.ID, "")
	if err != nil {
		return nil, fmt.Errorf("read the task titles: %w", err)
	}
	titles := make(map[string]string, len(tasks))
	for _, t := range tasks {
		titles[t.ID] = t.Title
	}
	return titles, nil
}
