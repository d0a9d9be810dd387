package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
)

// TestAPersonsWordsFindEveryFormOfThem is the search of issue 38: a
// decision about rate limits, a task to document them and a task to add a
// limiter are all found by "rate limit" (stemming), by the start of a word
// (prefixes, tried when the words as written find nothing), and the
// decision comes first.
func TestAPersonsWordsFindEveryFormOfThem(t *testing.T) {
	w := newLegacyWorld(t)
	w.task(t, "pat", "Document the rate limits")
	w.task(t, "pat", "Add a rate limiter")
	w.task(t, "pat", "Unrelated cleanup of the changelog")
	_, err := w.st.RecordDecision(context.Background(), store.LabelActor("pat"), store.RecordDecisionInput{
		WorkspaceID: w.ws, IdempotencyKey: "d1", Topic: "rate limits: per token, not per process",
		Decision: "Each token gets its own bucket"})
	if err != nil {
		t.Fatal(err)
	}
	ix := openIndex(t, w.st)
	cases := []struct {
		query, interpreted string
	}{
		{"rate limit", "rate limit"},
		{"rate limits", "rate limits"},
		{"Rate Limiting", "Rate Limiting"},
		{"rate limi", `"rate"* "limi"*`},
		{"limi", `"limi"*`},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			res := find(t, ix, search.Query{WorkspaceID: w.ws, Text: c.query})
			if res.Interpreted != c.interpreted {
				t.Errorf("interpreted as %q, want %q", res.Interpreted, c.interpreted)
			}
			var titles []string
			for _, h := range res.Hits {
				titles = append(titles, h.Kind+": "+h.Title)
			}
			if len(res.Hits) != 3 {
				t.Fatalf("want the decision and both tasks, got %q", titles)
			}
			if res.Hits[0].Kind != "decision" {
				t.Errorf("the decision should rank first, got %q", titles)
			}
			for _, h := range res.Hits {
				if strings.Contains(h.Title, "changelog") {
					t.Errorf("unrelated task found: %q", titles)
				}
			}
		})
	}
}

// TestValidExpressionsRunExactlyAsWritten keeps FTS5 syntax meaning what
// it says: an expression with an operator that finds nothing is not
// loosened into prefixes or any word.
func TestValidExpressionsRunExactlyAsWritten(t *testing.T) {
	w := newLegacyWorld(t)
	w.task(t, "pat", "Add a rate limiter")
	ix := openIndex(t, w.st)
	res := find(t, ix, search.Query{WorkspaceID: w.ws, Text: "rate AND budget"})
	if len(res.Hits) != 0 || res.Interpreted != "rate AND budget" {
		t.Fatalf("an FTS5 expression was loosened: %q gave %+v", res.Interpreted, res.Hits)
	}
}
