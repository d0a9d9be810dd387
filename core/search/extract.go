package search

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/agenttool/collab/core/journal"
)

// Kinds are the categories a hit can have, in the order they are listed
// to callers.
var Kinds = []string{"report", "decision", "task", "progress", "review", "handoff", "artifact", "session", "workspace", "event"}

// document is what one event contributes to the index.
type document struct {
	kind, refID   string
	taskID        *string
	title, body   string
	hasSearchable bool
}

// titleKeys hold short names: they go to the title column, which ranks
// above the body.
var titleKeys = map[string]bool{"title": true, "topic": true, "label": true, "name": true}

// leadingKeys are the primary prose of an event; they open the body so a
// snippet starts with what a person wrote.
var leadingKeys = []string{"body", "summary", "message", "blocker", "description", "decision", "rationale", "reason", "note"}

// skippedKeys never reach the index: absolute paths, repository keys and
// fixed boundary statements that every event of a type repeats.
var skippedKeys = map[string]bool{
	"root_path": true, "repository_key": true, "rights_profile": true, "identity_boundary": true,
	"authority_boundary": true, "checkpoint_boundary": true, "algorithm": true, "source": true,
	"completion_basis": true, "id": true,
}

// vocabularyKeys hold one word of a fixed vocabulary (a report's kind,
// confidence and relation, a task's statuses and modes, a review's
// outcome): they are filters, not text a person wrote, and in a snippet
// they read as noise ("high observation informs").
var vocabularyKeys = map[string]bool{
	"kind": true, "confidence": true, "relation": true, "status": true, "review_status": true,
	"coordination_mode": true, "work_mode": true, "completion_policy": true, "outcome": true,
	"action": true, "runtime_kind": true, "protocol": true,
}

// notedTypes are the event types whose "note" a person wrote; every other
// type's note is a fixed statement of the implementation.
var notedTypes = map[string]bool{"task.unblocked": true}

// skipKey reports whether a payload key holds machine data (ids, hashes,
// timestamps) or boilerplate rather than text worth searching.
func skipKey(eventType, key string) bool {
	if skippedKeys[key] || vocabularyKeys[key] {
		return true
	}
	if key == "note" && !notedTypes[eventType] {
		return true
	}
	for _, suffix := range []string{"_id", "_at", "hash", "sha", "sha256"} {
		if strings.HasSuffix(key, suffix) {
			return true
		}
	}
	return false
}

// extract turns one event into its document. Unparseable payloads index
// nothing rather than failing the whole catch-up: the journal verifier,
// not the search index, judges payloads.
func extract(e *journal.Event) document {
	var payload map[string]any
	if err := json.Unmarshal(e.PayloadJSON, &payload); err != nil {
		payload = nil
	}
	d := classify(e, payload)
	var title, lead, rest []string
	var walk func(key string, v any)
	walk = func(key string, v any) {
		switch x := v.(type) {
		case string:
			if x == "" {
				return
			}
			switch {
			case titleKeys[key]:
				title = append(title, x)
			case isLeading(key):
				lead = append(lead, x)
			default:
				rest = append(rest, x)
			}
		case []any:
			for _, item := range x {
				walk(key, item)
			}
		case map[string]any:
			for _, k := range sortedKeys(x) {
				if !skipKey(e.Type, k) {
					walk(k, x[k])
				}
			}
		}
	}
	walk("", payload)
	d.title = strings.Join(title, "\n")
	d.body = strings.Join(append(lead, rest...), "\n")
	d.hasSearchable = d.title != "" || d.body != ""
	return d
}

func isLeading(key string) bool {
	for _, k := range leadingKeys {
		if k == key {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Leading keys first in their fixed order, then the rest by name.
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := leadRank(keys[i]), leadRank(keys[j])
		if ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	return keys
}

func leadRank(key string) int {
	for i, k := range leadingKeys {
		if k == key {
			return i
		}
	}
	return len(leadingKeys)
}

// classify names what an event is about: its kind, the id a caller fetches
// it by, and its task.
func classify(e *journal.Event, p map[string]any) document {
	d := document{kind: "event", refID: e.EntityID}
	family, _, _ := strings.Cut(e.Type, ".")
	switch {
	case e.Type == "report.posted":
		d.kind, d.taskID = "report", stringField(p, "task_id")
		if k := stringField(p, "kind"); k != nil && *k == "decision" {
			d.kind = "decision"
		}
	case e.Type == "decision.recorded":
		d.kind = "decision"
	case e.Type == "task.created":
		d.kind, d.taskID = "task", ref(e.EntityID)
	case e.Type == "task.progressed":
		d.kind, d.taskID = "progress", ref(e.EntityID)
	case e.Type == "task.accepted" || e.Type == "task.changes_requested":
		d.kind, d.taskID = "review", ref(e.EntityID)
		if id := stringField(p, "review_id"); id != nil {
			d.refID = *id
		}
	case e.Type == "artifact.attached":
		d.kind, d.taskID = "artifact", ref(e.EntityID)
		if id := stringField(object(p, "artifact"), "id"); id != nil {
			d.refID = *id
		}
	case family == "task":
		d.kind, d.taskID = "task", ref(e.EntityID)
	case family == "handoff":
		d.kind, d.taskID = "handoff", firstString(stringField(p, "task_id"),
			stringField(object(p, "handoff"), "task_id"), stringField(object(p, "offer"), "task_id"))
	case family == "session":
		d.kind = "session"
	case family == "workspace" || family == "worktree":
		d.kind = "workspace"
	}
	return d
}

func ref(s string) *string { return &s }

func object(p map[string]any, key string) map[string]any {
	m, _ := p[key].(map[string]any)
	return m
}

func stringField(p map[string]any, key string) *string {
	if s, ok := p[key].(string); ok && s != "" {
		return &s
	}
	return nil
}

func firstString(options ...*string) *string {
	for _, o := range options {
		if o != nil {
			return o
		}
	}
	return nil
}
