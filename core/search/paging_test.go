package search_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/search"
)

// pages walks every page of q and returns the hits' sequences in order.
func pages(t *testing.T, ix *search.Index, q search.Query) []int64 {
	t.Helper()
	var seqs []int64
	for i := 0; ; i++ {
		res := find(t, ix, q)
		if len(res.Hits) > q.Limit {
			t.Fatalf("page of %d hits, limit %d", len(res.Hits), q.Limit)
		}
		for _, h := range res.Hits {
			seqs = append(seqs, h.Sequence)
		}
		if res.NextCursor == "" {
			return seqs
		}
		if i > 100 {
			t.Fatal("paging does not end")
		}
		q.Cursor = res.NextCursor
	}
}

func TestFiltersAndPagingAreExact(t *testing.T) {
	w := newLegacyWorld(t)
	want := map[string][]int64{}
	for i := 0; i < 40; i++ {
		actor := []string{"ann", "bob", "cy"}[i%3]
		w.task(t, actor, fmt.Sprintf("gamma widget number %d", i))
	}
	ix := openIndex(t, w.st)
	// Sequence 1 opened the workspace; task i is event i+2.
	for i := 0; i < 40; i++ {
		actor := []string{"ann", "bob", "cy"}[i%3]
		want[actor] = append(want[actor], int64(i+2))
	}
	for _, order := range []string{search.ByRelevance, search.ByRecency} {
		for _, limit := range []int{1, 4, 7, 50} {
			t.Run(fmt.Sprintf("%s/%d", order, limit), func(t *testing.T) {
				got := pages(t, ix, search.Query{WorkspaceID: w.ws, Text: "gamma widget", Actor: "bob", Kinds: []string{"task"},
					Order: order, Limit: limit})
				requireSameSet(t, got, want["bob"])
				all := pages(t, ix, search.Query{WorkspaceID: w.ws, Text: "widget", Order: order, Limit: limit,
					Since: search.Bound{Sequence: 10}, Until: search.Bound{Sequence: 20}})
				var span []int64
				for s := int64(10); s <= 20; s++ {
					span = append(span, s)
				}
				requireSameSet(t, all, span)
			})
		}
	}
	none := find(t, ix, search.Query{WorkspaceID: w.ws, Text: "widget", Kinds: []string{"report"}})
	if len(none.Hits) != 0 {
		t.Errorf("kind filter let through %+v", none.Hits)
	}
}

func TestRecentPagesStayExactWhileTheJournalGrows(t *testing.T) {
	w := newLegacyWorld(t)
	for i := 0; i < 12; i++ {
		w.task(t, "ann", fmt.Sprintf("delta item %d", i))
	}
	ix := openIndex(t, w.st)
	q := search.Query{WorkspaceID: w.ws, Text: "delta", Order: search.ByRecency, Limit: 5}
	var got []int64
	for {
		res := find(t, ix, q)
		for _, h := range res.Hits {
			got = append(got, h.Sequence)
		}
		w.task(t, "ann", "delta written between pages")
		if res.NextCursor == "" {
			break
		}
		q.Cursor = res.NextCursor
	}
	var want []int64
	for s := int64(13); s >= 2; s-- {
		want = append(want, s)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pages gave %v, want %v", got, want)
	}
}

func TestTimeBoundsAndSessionFilter(t *testing.T) {
	ix := openIndex(t, openStore(t, copyFixture(t)))
	gamma := "session_d0f053df-8bbb-4794-8ec2-1cff157d3eb2"
	res := find(t, ix, search.Query{WorkspaceID: fixtureWS, Text: "cli OR token* OR handoff OR reviewed OR resume", SessionID: gamma, Limit: 50})
	if len(res.Hits) == 0 {
		t.Fatal("no hit for the session")
	}
	for _, h := range res.Hits {
		if h.SessionID == nil || *h.SessionID != gamma {
			t.Errorf("session filter let through %+v", h)
		}
	}
	since, _ := search.ParseBound("2026-11-29T19:23:16Z", false)
	until, _ := search.ParseBound("2026-11-29T19:23:17Z", true)
	res = find(t, ix, search.Query{Text: "cli OR token* OR handoff OR reviewed OR resume OR tokenizer", Since: since, Until: until, Limit: 50})
	for _, h := range res.Hits {
		if h.OccurredAt < since.Time || h.OccurredAt > until.Time {
			t.Errorf("time bounds let through %s", h.OccurredAt)
		}
	}
	day, err := search.ParseBound("2026-11-28", true)
	if err != nil || day.Time != "2026-11-28T23:59:59.999Z" {
		t.Errorf("until a date is %+v %v", day, err)
	}
	if _, err := search.ParseBound("yesterday", false); !collaberr.HasCode(err, "invalid_bound") {
		t.Errorf("a bad bound gives %v", err)
	}
}

func TestCursorIsBoundToItsSearch(t *testing.T) {
	w := newLegacyWorld(t)
	for i := 0; i < 5; i++ {
		w.task(t, "ann", "epsilon")
	}
	ix := openIndex(t, w.st)
	first := find(t, ix, search.Query{WorkspaceID: w.ws, Text: "epsilon", Limit: 2})
	if first.NextCursor == "" {
		t.Fatal("no cursor")
	}
	for _, q := range []search.Query{
		{WorkspaceID: w.ws, Text: "other", Limit: 2, Cursor: first.NextCursor},
		{WorkspaceID: w.ws, Text: "epsilon", Actor: "bob", Limit: 2, Cursor: first.NextCursor},
		{WorkspaceID: w.ws, Text: "epsilon", Limit: 2, Cursor: "not-a-cursor"},
	} {
		if _, err := ix.Search(context.Background(), q); !collaberr.HasCode(err, "invalid_cursor") {
			t.Errorf("%+v: %v", q, err)
		}
	}
	if err := ix.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := ix.Search(context.Background(), search.Query{WorkspaceID: w.ws, Text: "epsilon", Limit: 2, Cursor: first.NextCursor})
	if !collaberr.HasCode(err, "invalid_cursor") {
		t.Errorf("a cursor from before a rebuild gives %v", err)
	}
}

func requireSameSet(t *testing.T, got, want []int64) {
	t.Helper()
	seen := map[int64]int{}
	for _, s := range got {
		seen[s]++
		if seen[s] > 1 {
			t.Errorf("sequence %d appears twice in %v", s, got)
		}
	}
	for _, s := range want {
		if seen[s] == 0 {
			t.Errorf("sequence %d missing from %v", s, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d hits %v, want %d %v", len(got), got, len(want), want)
	}
}
