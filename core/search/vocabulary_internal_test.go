package search

import (
	"testing"

	"github.com/agenttool/collab/core/journal"
)

// TestSnippetsHoldOnlyWhatAPersonWrote keeps the fixed vocabulary of an
// event (a report's kind, confidence and relation, a task's modes and
// statuses) out of the indexed body, so that snippets show text, never
// "high observation informs".
func TestSnippetsHoldOnlyWhatAPersonWrote(t *testing.T) {
	cases := []struct {
		eventType, payload, body string
	}{
		{"report.posted", `{"report":{"kind":"observation","confidence":"high","relation":"informs","body":"The limiter drops bursts","limits":"only checked locally"}}`,
			"The limiter drops bursts\nonly checked locally"},
		{"task.created", `{"task":{"title":"Add a limiter","status":"open","work_mode":"edit","completion_policy":"accepted","review_status":"not_required","coordination_mode":"session_v2"}}`, ""},
		{"task.accepted", `{"outcome":"accepted","summary":"Looks right"}`, "Looks right"},
	}
	for _, c := range cases {
		t.Run(c.eventType, func(t *testing.T) {
			d := extract(&journal.Event{Type: c.eventType, PayloadJSON: []byte(c.payload)})
			if d.body != c.body {
				t.Errorf("body %q, want %q", d.body, c.body)
			}
		})
	}
}
