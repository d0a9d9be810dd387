package cli

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/agenttool/collab/core/liveness"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/scope"
	"github.com/agenttool/collab/core/store"
)

// statusView is what `status --json` prints.
type statusView struct {
	Database   string          `json:"database"`
	Workspace  store.Workspace `json:"workspace"`
	ChainValid bool            `json:"chain_valid"`
	// CheckedFrom is the sequence the chain was verified after: the head
	// an earlier open verified and recorded (0: from genesis). collab
	// verify checks every event.
	CheckedFrom int64                       `json:"chain_checked_from"`
	Sessions    []store.CoordinationSession `json:"bound_sessions"`
	// States are the bound sessions' states as people's views tell
	// them (core/liveness), in the order of Sessions.
	States   []liveness.Life         `json:"session_states"`
	Presence []store.Presence        `json:"presence"`
	Tasks    map[string][]store.Task `json:"tasks_by_effective_status"`
	// Hidden counts the older completed tasks Tasks leaves out (collab
	// tasks --all lists them).
	Hidden    int            `json:"completed_not_shown"`
	Pending   []store.Task   `json:"pending_reviews"`
	Handoffs  []handoffView  `json:"open_handoffs"`
	Conflicts []conflictView `json:"path_conflicts"`
}

// conflictView is an open task a claim would be refused for now, because
// its paths overlap a held task or a completion awaiting review.
type conflictView struct {
	TaskID string      `json:"task_id"`
	With   string      `json:"blocked_by"`
	Pairs  [][2]string `json:"path_pairs"`
}

// Status shows one workspace: journal head and verification, bound
// sessions and presence (kept apart: presence is self-declared and
// authenticates nothing), tasks by effective status with their leases
// (the live ones, those awaiting review and the newest completed),
// pending reviews, open handoffs and path conflicts.
func Status(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("status", "status [--db FILE] [--root DIR | --workspace W] [--ids] [--json]", stdout, stderr)
	if err := fs.Parse(args); err != nil {
		return UsageExit(err)
	}
	v, err := c.open(ctx)
	if err != nil {
		return c.fail(stdout, stderr, err)
	}
	defer v.st.Close()
	stop := progress(stderr, "verifying the journal")
	sv, err := loadStatus(ctx, v)
	stop()
	if err != nil {
		return c.fail(stdout, stderr, err)
	}
	p := newPrinter(stdout)
	if c.json {
		p.json(sv)
	} else {
		renderStatus(p, sv, c.ids)
	}
	if !sv.ChainValid {
		return ExitRefused
	}
	return ExitOK
}

func loadStatus(ctx context.Context, v *view) (statusView, error) {
	sv := statusView{Database: place.Shown(v.path), Workspace: v.ws, Tasks: map[string][]store.Task{},
		Handoffs: []handoffView{}, Conflicts: []conflictView{}}
	ok, from, err := v.st.VerifyJournalSinceRecord(ctx, v.ws.ID)
	if err != nil {
		return sv, err
	}
	sv.ChainValid, sv.CheckedFrom = ok, from
	if sv.Sessions, err = v.st.ActiveSessions(ctx, v.ws.ID); err != nil {
		return sv, err
	}
	if sv.Presence, err = v.st.ListPresence(ctx, v.ws.ID, nil, nil); err != nil {
		return sv, err
	}
	shown, err := taskWindow(ctx, v)
	if err != nil {
		return sv, err
	}
	tasks := shown.tasks
	sv.Pending, sv.Hidden = shown.pending, shown.hidden
	for _, t := range tasks {
		s := string(t.EffectiveStatus)
		sv.Tasks[s] = append(sv.Tasks[s], t)
	}
	sv.Conflicts = pathConflicts(tasks)
	if sv.States, err = sessionStates(ctx, v, sv.Sessions, tasks); err != nil {
		return sv, err
	}
	handoffs, err := storeHandoffs(ctx, v, false, store.FormatTime(time.Now()))
	if err != nil {
		return sv, err
	}
	sv.Handoffs = append(sv.Handoffs, handoffs...)
	return sv, nil
}

func renderStatus(p *printer, sv statusView, ids bool) {
	chain := p.paint("32", "valid")
	if !sv.ChainValid {
		chain = p.paint("31", "INVALID")
	}
	p.line("workspace %s  %s  %s", p.paint("1", sv.Workspace.Name), sv.Workspace.ID, sv.Workspace.RootPath)
	checked := ""
	if sv.CheckedFrom > 0 {
		checked = fmt.Sprintf(" (checked after #%d; collab verify checks every event)", sv.CheckedFrom)
	}
	p.line("journal   head %d, chain %s%s  (%s)", sv.Workspace.EventHeadSequence, chain, checked, sv.Database)
	p.line("")
	p.heading("Bound sessions (credential-bound; they hold leases)")
	if len(sv.Sessions) == 0 {
		p.line("  none")
	}
	for i, s := range sv.Sessions {
		p.line("%s", sessionLine(p, s, sv.States[i], ids))
	}
	p.heading("Presence (self-declared; authenticates nothing)")
	if len(sv.Presence) == 0 {
		p.line("  none")
	}
	for _, s := range sv.Presence {
		p.line("  %-12s %s  %s", s.ActorLabel, s.RuntimeKind, s.ID)
	}
	p.heading("Tasks")
	if len(sv.Tasks) == 0 {
		p.line("  none")
	}
	for _, status := range statusOrder(sv.Tasks) {
		for _, t := range sv.Tasks[status] {
			p.line("  %-18s %-20s %s%s", status, t.ID, t.Title, taskNote(t))
		}
	}
	if line := hiddenLine(sv.Hidden, "collab tasks --all"); line != "" {
		p.line("  %s", line)
	}
	p.heading("Path conflicts (open tasks a claim would be refused for)")
	if len(sv.Conflicts) == 0 {
		p.line("  none")
	}
	for _, c := range sv.Conflicts {
		p.line("  %-20s overlaps %s: %v", c.TaskID, c.With, c.Pairs)
	}
	p.heading("Open handoffs")
	if len(sv.Handoffs) == 0 {
		p.line("  none")
	}
	for _, h := range sv.Handoffs {
		p.line("  %-9s %s  %s: %s → %s until %s", h.Status, h.ID, h.TaskID, h.FromActor, h.to(ids), h.ExpiresAt)
	}
	p.heading("Pending reviews")
	if len(sv.Pending) == 0 {
		p.line("  none")
	}
	for _, t := range sv.Pending {
		p.line("  %-20s reported by %s at %s", t.ID, deref(t.ReportedBy), deref(t.ReportedAt))
	}
}

// taskNote renders a task's holder, lease expiry, blocker or review state.
func taskNote(t store.Task) string {
	var parts []string
	if t.Assignee != nil {
		parts = append(parts, "held by "+*t.Assignee)
	}
	if t.LeaseExpiresAt != nil {
		parts = append(parts, "lease until "+*t.LeaseExpiresAt)
	}
	if t.Blocker != nil {
		parts = append(parts, "blocked: "+*t.Blocker)
	}
	if t.ReviewStatus != "not_required" && t.ReviewStatus != "legacy_unreviewed" && t.ReviewStatus != "" {
		parts = append(parts, "review "+string(t.ReviewStatus))
	}
	if len(t.PathScopes) > 0 {
		parts = append(parts, "paths "+strings.Join(t.PathScopes, ","))
	}
	if len(parts) == 0 {
		return ""
	}
	return "  (" + strings.Join(parts, "; ") + ")"
}

// statusOrder lists the effective statuses present, most urgent first.
func statusOrder(tasks map[string][]store.Task) []string {
	order := []string{"recovery_required", "lease_expired", "claimed", "blocked", "open"}
	seen := map[string]bool{}
	var out []string
	for _, s := range order {
		seen[s] = true
		if len(tasks[s]) > 0 {
			out = append(out, s)
		}
	}
	var rest []string
	for s := range tasks {
		if !seen[s] {
			rest = append(rest, s)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// sortByID orders tasks by id, so that a listing does not depend on which
// of two tasks created in the same millisecond the store returns first.
func sortByID(tasks []store.Task) {
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].ID < tasks[j].ID })
}

// pathConflicts finds open tasks whose scopes overlap a claimed task or a
// completion awaiting review, as a claim would (read-only tasks never
// conflict). It is a preview: the store decides at claim time.
func pathConflicts(tasks []store.Task) []conflictView {
	var out []conflictView
	for _, t := range tasks {
		if t.Status != "open" || t.WorkMode == "read_only" || len(t.PathScopes) == 0 {
			continue
		}
		for _, o := range tasks {
			reserved := o.Status == "claimed" || (o.Status == "completed" && o.CompletionPolicy == "accepted" && o.ReviewStatus == "pending")
			if o.ID == t.ID || !reserved || o.WorkMode == "read_only" {
				continue
			}
			if pairs := scope.Conflicts(t.PathScopes, o.PathScopes); len(pairs) > 0 {
				out = append(out, conflictView{TaskID: t.ID, With: o.ID, Pairs: pairs})
			}
		}
	}
	return out
}
