package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/agenttool/collab/core/store"
)

// handoffView is one handoff as the journal tells it.
type handoffView struct {
	ID        string `json:"id"`
	TaskID    string `json:"task_id"`
	FromActor string `json:"from_actor"`
	ToActor   string `json:"to_actor"`
	ToSession string `json:"to_session_id,omitempty"`
	Summary   string `json:"summary"`
	ExpiresAt string `json:"expires_at"`
	// Status is pending, lapsed (pending but past expiry, not yet reaped),
	// accepted, declined or expired.
	Status string `json:"status"`
}

// Handoffs lists handoffs: open ones (pending, or lapsed: past their
// deadline but not yet expired by a writer) by default, every one with
// --all. It is a pure read that reaps nothing.
func Handoffs(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("handoffs", "handoffs [--all] [--db FILE] [--root DIR | --workspace W] [--ids] [--json]", stdout, stderr)
	all := fs.Bool("all", false, "include answered and expired handoffs")
	return readCommand(ctx, fs, c, args, stdout, stderr, func(v *view) error {
		shown, err := storeHandoffs(ctx, v, *all, store.FormatTime(time.Now()))
		if err != nil {
			return err
		}
		p := newPrinter(stdout)
		if c.json {
			return p.json(map[string]any{"handoffs": nonNil(shown)})
		}
		for _, h := range shown {
			p.line("%s", h.line(c.ids))
		}
		if len(shown) == 0 {
			p.line("no open handoffs")
		}
		return nil
	})
}

// line renders the handoff as collab handoffs lists it.
func (h handoffView) line(ids bool) shown {
	return safef("%-9s %s  %s: %s → %s until %s: %s", h.Status, h.ID, h.TaskID, h.FromActor, h.to(ids), h.ExpiresAt, body(h.Summary))
}

// to names whom the handoff is offered to: the label, and with ids the
// session it names, if any.
func (h handoffView) to(ids bool) string {
	if ids && h.ToSession != "" {
		return h.ToActor + " (" + h.ToSession + ")"
	}
	return h.ToActor
}

// storeHandoffs lists the workspace's offers from the handoffs table,
// by id: the pending ones, or every one with all. A pending offer past
// its deadline reads as lapsed (a pure read reaps nothing). The table
// holds what a replay of the handoff.* events would give (same fields,
// same statuses; TestHandoffsTableTellsWhatTheJournalDoes), at the cost
// of the offers read instead of the whole journal.
func storeHandoffs(ctx context.Context, v *view, all bool, now string) ([]handoffView, error) {
	status := store.HandoffPending
	if all {
		status = ""
	}
	rows, err := v.st.ListHandoffs(ctx, v.ws.ID, status)
	if err != nil {
		return nil, fmt.Errorf("read the handoffs: %w", err)
	}
	out := make([]handoffView, 0, len(rows))
	for _, h := range rows {
		out = append(out, viewOfHandoff(h, now))
	}
	return out, nil
}

// viewOfHandoff is one offer row as people's commands show it at now.
func viewOfHandoff(h store.Handoff, now string) handoffView {
	out := handoffView{ID: h.ID, TaskID: h.TaskID, FromActor: h.FromActor, ToActor: h.ToActor,
		ToSession: deref(h.ToSessionID), Summary: h.Summary, ExpiresAt: h.ExpiresAt, Status: string(h.Status)}
	if h.Status == store.HandoffPending && h.ExpiresAt <= now {
		out.Status = "lapsed"
	}
	return out
}
