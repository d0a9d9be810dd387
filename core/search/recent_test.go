package search_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/search"
)

// TestARecentSearchIsTheRelevantHitsNewestFirst proves that reading the
// index in its row order (recent.go) answers what the relevance order
// answers, newest first, each hit with the same rank and fields.
func TestARecentSearchIsTheRelevantHitsNewestFirst(t *testing.T) {
	w := newLegacyWorld(t)
	for i := 0; i < 30; i++ {
		w.task(t, []string{"ann", "bob"}[i%2], fmt.Sprintf("kappa gauge %d %s", i, []string{"", "kappa", "kappa kappa"}[i%3]))
	}
	ix := openIndex(t, w.st)
	for _, q := range []search.Query{
		{WorkspaceID: w.ws, Text: "kappa", Limit: 50},
		{WorkspaceID: w.ws, Text: "kappa gauge", Actor: "bob", Limit: 50},
		{WorkspaceID: w.ws, Text: "kappa", Since: search.Bound{Sequence: 8}, Until: search.Bound{Sequence: 25}, Limit: 50},
	} {
		byRank := find(t, ix, q)
		q.Order = search.ByRecency
		recent := find(t, ix, q)
		if len(recent.Hits) != len(byRank.Hits) || len(recent.Hits) == 0 {
			t.Fatalf("%+v: %d hits by recency, %d by relevance", q, len(recent.Hits), len(byRank.Hits))
		}
		same := map[int64]search.Hit{}
		for _, h := range byRank.Hits {
			same[h.Sequence] = h
		}
		for i, h := range recent.Hits {
			if i > 0 && h.Sequence >= recent.Hits[i-1].Sequence {
				t.Errorf("%+v: hit %d (sequence %d) is not older than the one before it", q, i, h.Sequence)
			}
			if want, ok := same[h.Sequence]; !ok || asJSON(t, want) != asJSON(t, h) {
				t.Errorf("%+v: by recency %+v, by relevance %+v", q, h, want)
			}
		}
	}
}

func asJSON(t *testing.T, h search.Hit) string {
	t.Helper()
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
