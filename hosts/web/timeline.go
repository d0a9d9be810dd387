package web

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// pageSize is how many events one timeline page shows.
const pageSize = 50

// line is one timeline entry: a readable summary and, for expansion, the
// canonical hash body and hash.
type line struct {
	Event     journal.Event
	Summary   string
	Canonical string
}

func (s *Server) timeline(r *http.Request, d *pageData) (string, error) {
	q := store.EventQuery{Before: intParam(r, "before"), Type: r.URL.Query().Get("type"), Limit: pageSize}
	events, err := s.opts.Store.EventsBefore(r.Context(), d.WS.ID, q)
	if err != nil {
		return "", err
	}
	types, err := s.opts.Store.EventTypes(r.Context(), d.WS.ID)
	if err != nil {
		return "", err
	}
	lines := make([]line, len(events))
	for i := range events {
		lines[i] = describe(events[i])
	}
	var older int64
	if len(events) == pageSize && events[len(events)-1].Sequence > 1 {
		older = events[len(events)-1].Sequence
	}
	d.Title, d.Tab = "Timeline", "timeline"
	d.Body = struct {
		Lines  []line
		Query  store.EventQuery
		Types  []string
		Older  int64
		Paged  bool
		Oldest bool
	}{lines, q, types, older, q.Before > 0, older == 0}
	return "timeline", nil
}

// describe renders one event for a person.
func describe(e journal.Event) line {
	l := line{Event: e, Summary: summarise(e.PayloadJSON)}
	body, err := journal.AppendHashBody(nil, &e)
	if err != nil {
		l.Canonical = "(payload is not valid JSON: " + err.Error() + ")\n" + string(e.PayloadJSON)
		return l
	}
	l.Canonical = string(body)
	return l
}

// summaryKeys are the payload members that say best what an event is
// about, in the order they are tried, at the top level and then one level
// down (events often nest the entity: {"task": {...}}).
var summaryKeys = []string{"title", "summary", "topic", "body", "message", "decision", "blocker", "note", "reason", "outcome", "status"}

// summarise picks the most telling payload text, cut to 140 characters.
func summarise(payload []byte) string {
	var m map[string]any
	if json.Unmarshal(payload, &m) != nil {
		return ""
	}
	keys := slices.Sorted(maps.Keys(m))
	for _, k := range summaryKeys {
		if s := text(m[k]); s != "" {
			return clip(s, 140)
		}
		for _, name := range keys {
			if nested, ok := m[name].(map[string]any); ok {
				if s := text(nested[k]); s != "" {
					return clip(s, 140)
				}
			}
		}
	}
	return ""
}

func text(v any) string {
	switch x := v.(type) {
	case string:
		return strings.Join(strings.Fields(x), " ")
	case float64, bool:
		return fmt.Sprint(x)
	}
	return ""
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
