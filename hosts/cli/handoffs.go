package cli

import (
	"context"
	"encoding/json"
	"io"
	"sort"
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

// Handoffs lists handoffs from the journal: open ones by default, every
// one with --all. Reading the journal, not the handoff table, keeps it a
// pure read that reaps nothing.
func Handoffs(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("handoffs", "handoffs [--all] [--db FILE] [--root DIR | --workspace W] [--ids] [--json]", stdout, stderr)
	all := fs.Bool("all", false, "include answered and expired handoffs")
	return readCommand(ctx, fs, c, args, stdout, stderr, func(v *view) error {
		list, err := journalHandoffs(ctx, v, store.FormatTime(time.Now()))
		if err != nil {
			return err
		}
		var shown []handoffView
		for _, h := range list {
			if *all || h.Status == "pending" || h.Status == "lapsed" {
				shown = append(shown, h)
			}
		}
		p := newPrinter(stdout)
		if c.json {
			return p.json(map[string]any{"handoffs": nonNil(shown)})
		}
		for _, h := range shown {
			p.line("%-9s %s  %s: %s → %s until %s: %s", h.Status, h.ID, h.TaskID, h.FromActor, h.to(c.ids), h.ExpiresAt, body(h.Summary))
		}
		if len(shown) == 0 {
			p.line("no open handoffs")
		}
		return nil
	})
}

// to names whom the handoff is offered to: the label, and with ids the
// session it names, if any.
func (h handoffView) to(ids bool) string {
	if ids && h.ToSession != "" {
		return h.ToActor + " (" + h.ToSession + ")"
	}
	return h.ToActor
}

// journalHandoffs replays the handoff events of the workspace.
func journalHandoffs(ctx context.Context, v *view, now string) ([]handoffView, error) {
	byID := map[string]*handoffView{}
	var after int64
	for {
		page, err := v.st.EventsSince(ctx, v.ws.ID, &after, nil, 500)
		if err != nil {
			return nil, err
		}
		for _, e := range page.Events {
			after = e.Sequence
			applyHandoffEvent(byID, e)
		}
		if !page.HasMore || len(page.Events) == 0 {
			break
		}
	}
	out := make([]handoffView, 0, len(byID))
	for _, h := range byID {
		if h.Status == "pending" && h.ExpiresAt <= now {
			h.Status = "lapsed"
		}
		out = append(out, *h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

func applyHandoffEvent(byID map[string]*handoffView, e store.EventView) {
	switch e.Type {
	case "handoff.offered":
		var p struct {
			Handoff *store.Handoff `json:"handoff"`
			Offer   *store.Handoff `json:"offer"`
		}
		if json.Unmarshal(e.PayloadJSON, &p) != nil {
			return
		}
		h := p.Handoff
		if h == nil {
			h = p.Offer
		}
		if h == nil {
			return
		}
		byID[h.ID] = &handoffView{ID: h.ID, TaskID: h.TaskID, FromActor: h.FromActor, ToActor: h.ToActor,
			ToSession: deref(h.ToSessionID), Summary: h.Summary, ExpiresAt: h.ExpiresAt, Status: "pending"}
	case "handoff.accepted", "handoff.declined", "handoff.expired":
		if h, ok := byID[e.EntityID]; ok {
			h.Status = e.Type[len("handoff."):]
		}
	}
}
