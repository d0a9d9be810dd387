package web

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
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
	lines := make([]line, len(events))
	for i := range events {
		lines[i] = describe(events[i])
	}
	types := withPageTypes(s.types.get(s.opts.Store, d.WS), lines, q.Type)
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

// typeCache remembers each journal's event types up to a head, so that
// the timeline's type filter reads only events newer than the last page.
// Listing the types of a long journal means reading all of it, so the
// read runs in the background: a page waits for it briefly (typeWait) and
// otherwise shows the types known so far plus those on the page itself.
type typeCache struct {
	mu      sync.Mutex
	seen    map[string]typesAt
	pending map[string]chan struct{}
}

// typeWait is how long a page waits for a journal's event types.
const typeWait = 50 * time.Millisecond

type typesAt struct {
	head  int64
	types []string
}

func (c *typeCache) get(st *store.Store, ws *store.Workspace) []string {
	c.mu.Lock()
	if c.seen == nil {
		c.seen, c.pending = map[string]typesAt{}, map[string]chan struct{}{}
	}
	have := c.seen[ws.ID]
	if have.head == ws.EventHeadSequence && have.types != nil {
		c.mu.Unlock()
		return have.types
	}
	done, running := c.pending[ws.ID]
	if !running {
		done = make(chan struct{})
		c.pending[ws.ID] = done
		go c.refresh(st, ws.ID, ws.EventHeadSequence, have, done)
	}
	c.mu.Unlock()
	select {
	case <-done:
	case <-time.After(typeWait):
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen[ws.ID].types
}

// refresh reads the types of events after what is known, up to head.
func (c *typeCache) refresh(st *store.Store, ws string, head int64, have typesAt, done chan struct{}) {
	defer close(done)
	if have.head > head {
		have = typesAt{} // the journal was replaced; start again
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	fresh, err := st.EventTypes(ctx, ws, have.head)
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, ws)
	if err != nil {
		return
	}
	merged := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(have.types), fresh...))))
	c.seen[ws] = typesAt{head: head, types: merged}
}

// withPageTypes adds the types of the shown events and the selected one
// to known, so that the filter always offers them.
func withPageTypes(known []string, lines []line, selected string) []string {
	out := slices.Clone(known)
	for _, l := range lines {
		out = append(out, l.Event.Type)
	}
	if selected != "" {
		out = append(out, selected)
	}
	return slices.Compact(slices.Sorted(slices.Values(out)))
}
