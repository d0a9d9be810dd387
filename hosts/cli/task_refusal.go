package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// taskRules says, in this package's words, what each rule a task action
// can meet refused. A refusal prints its registered code with the
// sentence, then who or what is in the way, by name.
var taskRules = map[string]string{
	"path_scope_conflict":        "its paths overlap those of a task that is claimed",
	"task_claimed":               "the task is claimed already",
	"lease_not_holder":           "only the session holding the task's lease may do this",
	"lease_not_active":           "the task is not claimed, so there is no lease to act on",
	"lease_expired":              "the lease on this task ran out",
	"recovery_required":          "the last holder's lease ran out and must be recovered first",
	"recovery_not_required":      "the task holds no lease that ran out, so there is nothing to recover",
	"dependencies_incomplete":    "tasks it depends on are not done (or not yet accepted)",
	"edit_scope_required":        "an edit task must name the paths it may change",
	"task_completed":             "the task is already complete",
	"task_blocked":               "the task is blocked",
	"task_exists":                "a task with that id already exists",
	"task_not_found":             "there is no such task in this workspace",
	"version_conflict":           "the task changed while you were acting",
	"handoff_pending":            "the task already has an offer waiting for an answer",
	"invalid_handoff":            "a handoff must go to a session other than your own",
	"handoff_target_unavailable": "the session you named is not an active session of this workspace",
	"handoff_not_recipient":      "the offer is addressed to another session",
	"handoff_not_found":          "there is no such handoff in this workspace",
	"handoff_source_changed":     "the lease the offer came from changed hands or ended",
	"handoff_resolved":           "the offer was already answered",
	"handoff_expired":            "the offer is no longer open",
	"evidence_not_found":         "an evidence reference names nothing recorded in this workspace",
}

// taskFixes says what to do next about the refusals above, where the
// general fixes say nothing.
var taskFixes = map[string]string{
	"path_scope_conflict":        "wait until the holder releases or completes it, or choose paths that do not overlap",
	"task_claimed":               "ask the holder to offer it to you (collab task handoff offer), or pick another task",
	"lease_not_holder":           "only the holder can act on it; ask them, or claim it once it is released",
	"lease_not_active":           "claim it first: collab task claim TASK",
	"lease_expired":              "recover it: collab task recover TASK --note TEXT",
	"recovery_required":          "collab task recover TASK --note TEXT takes it over, releases it or blocks it",
	"recovery_not_required":      "claim it, or renew the lease if it is yours",
	"dependencies_incomplete":    "finish (and have accepted) the tasks it depends on first; see collab tasks",
	"edit_scope_required":        "add --path DIR for each path it changes, or --mode coordination for work that edits no files",
	"task_exists":                "pick another --id, or leave --id out for a generated one",
	"handoff_pending":            "wait for the answer, or see collab handoffs",
	"invalid_handoff":            "name another session with --to",
	"handoff_target_unavailable": "see the active sessions with collab sessions",
	"handoff_not_recipient":      "only the session it names may answer it; see collab handoffs",
	"handoff_not_found":          "see open offers with collab handoffs",
	"handoff_source_changed":     "ask the holder to offer it again",
	"evidence_not_found":         "use references such as report:<id> or event:<id> that exist here",
}

// named turns a store refusal of a task action into a problem naming the
// rule that refused and who or what stands in the way (the holder by actor
// label, the overlapping task by id and title). A refusal with no sentence
// here, or an error that is no refusal, is reported as refused does.
func (s *personSeat) named(ctx context.Context, err error) error {
	ce, ok := collaberr.As(err)
	if !ok {
		return s.refused(err)
	}
	if _, ok := taskRules[ce.Code]; !ok {
		return s.refused(err)
	}
	return ruleProblem(ce.Code, s.seat.Scrub(inTheWay(ctx, s.st, ce, s.seat.SessionID())))
}

// ruleProblem is a refusal by the rule code, followed by what stands in
// its way; a check made before the person's session is touched refuses in
// the same words as the store's refusal would be told.
func ruleProblem(code, inTheWay string) error {
	fix, ok := taskFixes[code]
	if !ok {
		fix = fixes[code]
	}
	if fix == "" {
		fix = "see docs/errors.md for " + code
	}
	return &problem{what: "refused (" + code + "): " + taskRules[code] + inTheWay, fix: fix, code: ExitRefused, refusal: code}
}

// inTheWay names, from a refusal's details, who holds what it wanted and
// which task overlaps it: " (held by ben)", " (task docs-pass "Write the
// docs"; held by cy; docs ↔ docs)"; a lease of the person's own session
// (me) is "held by you".
func inTheWay(ctx context.Context, st *store.Store, ce *collaberr.Error, me string) string {
	var parts []string
	if id := detail(ce, "conflicting_task_id"); id != "" {
		task := "task " + id
		if t, err := st.GetTask(ctx, detail(ce, "conflicting_workspace_id"), id); err == nil {
			task += " " + quoted(t.Title)
		}
		parts = append(parts, task)
	}
	who, prior := holderName(ctx, st, ce)
	if me != "" && (detail(ce, "assignee_session_id") == me || detail(ce, "prior_session_id") == me) {
		who = "you"
	}
	switch {
	case who != "" && prior:
		parts = append(parts, "last held by "+who)
	case who != "":
		parts = append(parts, "held by "+who)
	}
	if deps, ok := ce.Detail("dependencies"); ok {
		parts = append(parts, fmt.Sprintf("waiting on %v", deps))
	}
	if ref := detail(ce, "reference"); ref != "" {
		parts = append(parts, ref)
	}
	if id := detail(ce, "handoff_id"); id != "" {
		parts = append(parts, "offer "+id)
	}
	if pairs, ok := ce.Detail("conflicts"); ok {
		if p, ok := pairs.([][2]string); ok {
			var shown []string
			for _, pair := range p {
				shown = append(shown, pair[0]+" ↔ "+pair[1])
			}
			parts = append(parts, strings.Join(shown, ", "))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// holderName is the actor label of whoever holds the lease a refusal is
// about, or held it when prior (a lease that ran out): the label the
// refusal carries, else the label of the session it names.
func holderName(ctx context.Context, st *store.Store, ce *collaberr.Error) (name string, prior bool) {
	for _, h := range []struct {
		label, session string
		prior          bool
	}{{"assignee", "assignee_session_id", false}, {"prior_assignee", "prior_session_id", true}} {
		if v := detail(ce, h.label); v != "" {
			return v, h.prior
		}
		if id := detail(ce, h.session); id != "" {
			if sess, err := st.Session(ctx, id); err == nil {
				return sess.Actor, h.prior
			}
		}
	}
	return "", false
}

// detail is a refusal's string detail, "" when absent or not a string.
func detail(ce *collaberr.Error, key string) string {
	v, _ := ce.Detail(key)
	s, _ := v.(string)
	return s
}
