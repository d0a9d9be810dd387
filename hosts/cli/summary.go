package cli

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// summaryWidth bounds an event's summary on a `tail` line; the full event
// is one `tail --json` away.
const summaryWidth = 96

// eventSummary says in a few words what an event recorded, from its
// payload: a report's text, a task's title and id (titles looked up by id,
// since most task events carry none) with what changed, a handoff's
// summary, a
// decision. It is "" when the payload holds nothing a person reads (the
// caller then shows the entity id).
func eventSummary(kind, entityID string, payload []byte, titles map[string]string) string {
	var p map[string]any
	if json.Unmarshal(payload, &p) != nil {
		p = map[string]any{}
	}
	str := func(m map[string]any, key string) string {
		s, _ := m[key].(string)
		return s
	}
	obj := func(key string) map[string]any {
		m, _ := p[key].(map[string]any)
		return m
	}
	task := func(id string) string {
		if t := titles[id]; t != "" {
			return t + " (" + id + ")"
		}
		return id
	}
	with := func(head, detail string) string {
		if detail == "" {
			return head
		}
		return head + ": " + detail
	}
	switch {
	case kind == "report.posted":
		return with(str(p, "kind"), str(p, "body"))
	case kind == "decision.recorded":
		d := obj("decision")
		return with(str(d, "topic"), str(d, "decision"))
	case kind == "task.created":
		if title := str(p, "title"); title != "" {
			return title + " (" + entityID + ")"
		}
		return entityID
	case kind == "task.claimed" || kind == "task.lease_renewed":
		return with(task(entityID), until(str(p, "lease_expires_at")))
	case kind == "task.progressed":
		return with(task(entityID), str(p, "message"))
	case kind == "task.blocked":
		return with(task(entityID), str(p, "blocker"))
	case kind == "task.unblocked":
		return with(task(entityID), str(p, "note"))
	case kind == "task.recovered":
		return with(task(entityID), str(p, "action"))
	case kind == "artifact.attached":
		a := obj("artifact")
		label := str(a, "label")
		if label == "" {
			label = str(a, "uri")
		}
		return with(task(entityID), label)
	case strings.HasPrefix(kind, "task."):
		return with(task(entityID), str(p, "summary"))
	case kind == "handoff.offered":
		h := obj("handoff")
		if h == nil {
			h = obj("offer")
		}
		return with(task(str(h, "task_id")), str(h, "summary"))
	case kind == "handoff.expired":
		return with(task(str(p, "task_id")), str(p, "reason"))
	case strings.HasPrefix(kind, "handoff."):
		return task(str(p, "task_id"))
	case kind == "session.ended" || kind == "session.cursor_reset":
		return str(p, "reason")
	case kind == "workspace.opened" || kind == "worktree.registered":
		return str(p, "root_path")
	}
	return ""
}

func until(at string) string {
	if at == "" {
		return ""
	}
	return "lease until " + shortTime(at)
}

// shortTime is an ISO timestamp as a person reads it: date and time to
// the second, no zone letter.
func shortTime(at string) string {
	if len(at) >= 19 {
		return strings.Replace(at[:19], "T", " ", 1)
	}
	return at
}

// oneLine folds runs of white space (line feeds included) into single
// spaces and cuts the text to width runes, marking a cut with "…".
func oneLine(s string, width int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	r := []rune(s)
	return string(r[:width-1]) + "…"
}
