package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/agenttool/collab/core/liveness"
	"github.com/agenttool/collab/core/store"
)

// Tasks lists the workspace's tasks, optionally those of one stored
// status: by default the live ones, those awaiting review and the newest
// completed (a line says how many completed it left out), every one with
// --all.
func Tasks(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("tasks", "tasks [--status open|claimed|blocked|completed] [--all] [--db FILE] [--root DIR | --workspace W] [--ids] [--json]", stdout, stderr)
	status := fs.String("status", "", "only tasks whose stored status is `S`")
	all := fs.Bool("all", false, fmt.Sprintf("list every completed task, not only those awaiting review and the %d newest", recentCompleted))
	return readCommand(ctx, fs, c, args, stdout, stderr, func(v *view) error {
		if err := checkTaskStatus(*status); err != nil {
			return err
		}
		tasks, hidden, err := listedTasks(ctx, v, *status, *all)
		if err != nil {
			return err
		}
		hide, err := v.withholding(ctx)
		if err != nil {
			return err
		}
		tasks = hide.Tasks(tasks)
		sortByID(tasks)
		p := newPrinter(stdout)
		if c.json {
			return p.json(map[string]any{"tasks": nonNil(tasks), "completed_not_shown": hidden})
		}
		for _, t := range tasks {
			p.line("%-20s %-18s %s%s", t.ID, t.EffectiveStatus, t.Title, taskNote(t))
		}
		if len(tasks) == 0 && hidden == 0 {
			p.line("no tasks")
		}
		if line := hiddenLine(hidden, "--all"); line != "" {
			p.line("%s", line)
		}
		return nil
	})
}

// listedTasks reads the tasks collab tasks lists: every task of status
// (every task when status is empty) when all is set or status is a live
// one, else the task window (of its completed tasks, for --status
// completed) and how many completed tasks it left out.
func listedTasks(ctx context.Context, v *view, status string, all bool) ([]store.Task, int, error) {
	if all || (status != "" && status != string(store.TaskCompleted)) {
		tasks, err := v.st.ListTasks(ctx, v.ws.ID, status)
		return tasks, 0, err
	}
	shown, err := taskWindow(ctx, v)
	tasks := shown.tasks
	if status != "" {
		tasks = slices.DeleteFunc(tasks, func(t store.Task) bool { return string(t.Status) != status })
	}
	return tasks, shown.hidden, err
}

// storedStatuses are the values --status can match: the stored ones
// (a lease that ran out is still stored as claimed).
var storedStatuses = []store.TaskStatus{store.TaskOpen, store.TaskClaimed, store.TaskBlocked, store.TaskCompleted}

// checkTaskStatus refuses a --status no task can have, which would
// otherwise read as an empty list.
func checkTaskStatus(status string) error {
	if status == "" {
		return nil
	}
	names := make([]string, len(storedStatuses))
	for i, s := range storedStatuses {
		if string(s) == status {
			return nil
		}
		names[i] = string(s)
	}
	return &problem{what: fmt.Sprintf("no task status %q", status),
		fix: "use --status " + strings.Join(names, ", ") + ", or leave it out to list every task", code: ExitUsage}
}

// Show prints one task: state, lease, scopes, checkpoints, reviews and the
// reports about it.
func Show(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("show", "show TASK [--db FILE] [--root DIR | --workspace W] [--ids] [--json]", stdout, stderr)
	return readCommand(ctx, fs, c, args, stdout, stderr, func(v *view) error {
		if len(c.args) != 1 {
			return &problem{what: "show needs exactly one task id", fix: "list them with `collab tasks`", code: ExitUsage}
		}
		id := c.args[0]
		t, err := v.st.GetTask(ctx, v.ws.ID, id)
		if err != nil {
			return &problem{what: "no task " + id + " in workspace " + v.ws.ID, fix: "list them with `collab tasks`", code: ExitUsage}
		}
		reports, err := v.st.ListReports(ctx, store.ListReportsInput{WorkspaceID: v.ws.ID, TaskID: &id})
		if err != nil {
			return err
		}
		hide, err := v.withholding(ctx)
		if err != nil {
			return err
		}
		t, reports = hide.TaskWithArtifacts(t), hide.Reports(reports)
		names, err := sessionLabels(ctx, v, c.ids)
		if err != nil {
			return err
		}
		p := newPrinter(stdout)
		if c.json {
			return p.json(map[string]any{"task": t, "reports": names.reports(reports)})
		}
		p.line("%s  %s", p.paint("1", t.ID), t.Title)
		p.line("  status     %s (stored %s), review %s, version %d", t.EffectiveStatus, t.Status, t.ReviewStatus, t.Version)
		p.line("  mode       %s, completion %s", t.WorkMode, t.CompletionPolicy)
		p.line("  paths      %s", orDash(strings.Join(t.PathScopes, ", ")))
		p.line("  depends on %s", orDash(strings.Join(t.Dependencies, ", ")))
		p.line("  assignee   %s  lease %s until %s", names.holder(t.Assignee, t.AssigneeSessionID), deref(t.LeaseID), deref(t.LeaseExpiresAt))
		p.line("  progress   %s", deref(t.LatestProgress))
		p.line("  reported   %s at %s; accepted %s at %s", deref(t.ReportedBy), deref(t.ReportedAt), deref(t.AcceptedBy), deref(t.AcceptedAt))
		if len(t.ResultCheckpoint) > 0 && string(t.ResultCheckpoint) != "null" {
			p.line("  result     %s", t.ResultCheckpoint)
		}
		if err := independentReviewLines(ctx, v, p, t.ID); err != nil {
			return err
		}
		p.heading("Reports")
		for _, r := range reports {
			p.line("  %s", reportLine(r, names))
		}
		return nil
	})
}

// Reports lists reports, optionally those addressed to one session or of
// one kind.
func Reports(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("reports", "reports [--to NAME] [--kind K] [--db FILE] [--root DIR | --workspace W] [--ids] [--json]", stdout, stderr)
	to := c.sessionFlag(fs, "to", "only reports addressed to session `NAME`: an actor label, a short id or an id")
	kind := fs.String("kind", "", "only reports of kind `K` (observation, inference, proposal, decision)")
	return readCommand(ctx, fs, c, args, stdout, stderr, func(v *view) error {
		in := store.ListReportsInput{WorkspaceID: v.ws.ID}
		if to.Given() {
			id := to.ID()
			in.ToSessionID = &id
		}
		limit := int64(500)
		in.Limit = &limit
		all, err := v.st.ListReports(ctx, in)
		if err != nil {
			return err
		}
		hide, err := v.withholding(ctx)
		if err != nil {
			return err
		}
		all = hide.Reports(all)
		var reports []store.Report
		for _, r := range all {
			if *kind == "" || r.Kind == *kind {
				reports = append(reports, r)
			}
		}
		receipts, err := addressedReceipts(ctx, v.st, v.ws.ID, reports)
		if err != nil {
			return err
		}
		names, err := sessionLabels(ctx, v, c.ids)
		if err != nil {
			return err
		}
		p := newPrinter(stdout)
		if c.json {
			return p.json(map[string]any{"reports": names.reports(reports), "receipts": receipts})
		}
		for _, r := range reports {
			p.line("%s", reportLine(r, names))
			if rec, ok := receipts[r.ID]; ok {
				p.line("%s", deliveryLine(rec))
			}
		}
		if len(reports) == 0 {
			p.line("no reports")
		}
		return nil
	})
}

// Decisions lists decisions: decision reports of sessions and, for older
// journals, the ten most recent legacy decision rows.
func Decisions(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("decisions", "decisions [--db FILE] [--root DIR | --workspace W] [--ids] [--json]", stdout, stderr)
	return readCommand(ctx, fs, c, args, stdout, stderr, func(v *view) error {
		st, err := v.st.Status(ctx, v.ws.ID)
		if err != nil {
			return err
		}
		limit := int64(500)
		all, err := v.st.ListReports(ctx, store.ListReportsInput{WorkspaceID: v.ws.ID, Limit: &limit})
		if err != nil {
			return err
		}
		var reports []store.Report
		for _, r := range all {
			if r.Kind == "decision" {
				reports = append(reports, r)
			}
		}
		names, err := sessionLabels(ctx, v, c.ids)
		if err != nil {
			return err
		}
		p := newPrinter(stdout)
		if c.json {
			return p.json(map[string]any{"decision_reports": names.reports(reports), "legacy_decisions": nonNil(st.RecentDecisions)})
		}
		for _, r := range reports {
			p.line("%s", reportLine(r, names))
		}
		for _, d := range st.RecentDecisions {
			p.line("%s  %-10s %s: %s", d.RecordedAt, d.RecordedBy, p.paint("1", d.Topic), body(d.Decision))
		}
		if len(st.RecentDecisions)+len(reports) == 0 {
			p.line("no decisions")
		}
		return nil
	})
}

// Sessions lists bound sessions and, separately, self-declared presence;
// given a NAME, only the bound sessions it could mean (several when a label
// is shared), ended ones included.
func Sessions(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("sessions", "sessions [NAME] [--db FILE] [--root DIR | --workspace W] [--ids] [--json]", stdout, stderr)
	return readCommand(ctx, fs, c, args, stdout, stderr, func(v *view) error {
		if len(c.args) > 1 {
			return &problem{what: "sessions takes at most one name", fix: "quote a label with spaces: collab sessions 'pat at home'", code: ExitUsage}
		}
		if len(c.args) == 1 {
			return namedSessions(ctx, v, c, c.args[0], newPrinter(stdout))
		}
		sv, err := loadStatus(ctx, v)
		if err != nil {
			return err
		}
		p := newPrinter(stdout)
		if c.json {
			return p.json(map[string]any{"bound_sessions": nonNil(sv.Sessions), "session_states": nonNil(sv.States),
				"presence": nonNil(sv.Presence)})
		}
		p.heading("Bound sessions")
		if len(sv.Sessions) == 0 {
			p.line("  none")
		}
		for i, s := range sv.Sessions {
			p.line("%s", sessionLine(p, s, sv.States[i], c.ids))
		}
		p.heading("Presence")
		if len(sv.Presence) == 0 {
			p.line("  none")
		}
		for _, s := range sv.Presence {
			p.line("  %-12s %s  %s", s.ActorLabel, s.RuntimeKind, s.ID)
		}
		return nil
	})
}

// namedSessions prints the sessions name could mean: the one it resolves
// to, or every candidate when it is ambiguous; an unknown name is refused
// with the live sessions.
func namedSessions(ctx context.Context, v *view, c *common, name string, p *printer) error {
	known, err := readSessionsNow(ctx, v)
	if err != nil {
		return err
	}
	var shown []store.CoordinationSession
	chosen, err := store.ChooseLiveSession(known.list, name, known.live)
	var un *store.UnresolvedSession
	switch {
	case err == nil:
		shown = append(shown, chosen)
	case errors.As(err, &un) && un.Ambiguous:
		for _, cand := range un.Candidates {
			for _, s := range known.list {
				if s.ID == cand.ID {
					shown = append(shown, s)
				}
			}
		}
	case errors.As(err, &un):
		return unresolved("NAME", un, known.lives)
	default:
		return err
	}
	if c.json {
		states := make([]liveness.Life, len(shown))
		for i, s := range shown {
			states[i] = known.lives[s.ID]
		}
		return p.json(map[string]any{"bound_sessions": shown, "session_states": states})
	}
	for _, s := range shown {
		p.line("%s", sessionLine(p, s, known.lives[s.ID], c.ids))
	}
	return nil
}

// readCommand parses flags, opens the workspace read-only and runs body.
func readCommand(ctx context.Context, fs *flag.FlagSet, c *common, args []string, stdout, stderr io.Writer, body func(*view) error) int {
	if err := parse(fs, c, args); err != nil {
		return UsageExit(err)
	}
	v, err := c.open(ctx)
	if err != nil {
		return c.fail(stdout, stderr, err)
	}
	defer v.st.Close()
	if err := body(v); err != nil {
		return c.fail(stdout, stderr, err)
	}
	return ExitOK
}

// reportLine renders one report, its text escaped, the sessions it is from
// and to by label; the body keeps its line breaks and tabs.
func reportLine(r store.Report, names *labels) shown {
	from, to := r.FromActor, ""
	if r.FromSessionID != nil {
		from = names.of(*r.FromSessionID)
	}
	if r.ToSessionID != nil {
		to = " → " + names.of(*r.ToSessionID)
	}
	return safef("#%d %s %s %s/%s%s: %s", r.EventSequence, r.CreatedAt, from, r.Kind, r.Relation, to, body(r.Body))
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
