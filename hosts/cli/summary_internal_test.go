package cli

import "testing"

// TestEventSummarySaysWhatTheEventRecorded names, for each family of
// events, the words a tail line shows in place of the entity id.
func TestEventSummarySaysWhatTheEventRecorded(t *testing.T) {
	titles := map[string]string{"rate": "Add a rate limiter"}
	for _, c := range []struct{ kind, entity, payload, want string }{
		{"report.posted", "report_1", `{"kind":"proposal","body":"Read the limit\nfrom config."}`, "proposal: Read the limit\nfrom config."},
		{"decision.recorded", "decision_1", `{"decision":{"topic":"limits","decision":"100 a minute"}}`, "limits: 100 a minute"},
		{"task.created", "rate", `{"title":"Add a rate limiter","version":1}`, "Add a rate limiter (rate)"},
		{"task.claimed", "rate", `{"lease_expires_at":"2026-12-03T05:51:08.353Z"}`, "Add a rate limiter (rate): lease until 2026-12-03 05:51:08"},
		{"task.progressed", "rate", `{"message":"half way"}`, "Add a rate limiter (rate): half way"},
		{"task.blocked", "rate", `{"blocker":"needs a key"}`, "Add a rate limiter (rate): needs a key"},
		{"task.accepted", "rate", `{"summary":"Looks right."}`, "Add a rate limiter (rate): Looks right."},
		{"task.released", "unknown", `{"summary":null}`, "unknown"},
		{"handoff.offered", "handoff_1", `{"handoff":{"task_id":"rate","summary":"please finish"}}`, "Add a rate limiter (rate): please finish"},
		{"handoff.offered", "handoff_1", `{"offer":{"task_id":"rate","summary":"legacy offer"}}`, "Add a rate limiter (rate): legacy offer"},
		{"handoff.accepted", "handoff_1", `{"task_id":"rate"}`, "Add a rate limiter (rate)"},
		{"handoff.expired", "handoff_1", `{"task_id":"rate","reason":"target_session_ended"}`, "Add a rate limiter (rate): target_session_ended"},
		{"artifact.attached", "rate", `{"artifact":{"uri":"file:///x","label":null}}`, "Add a rate limiter (rate): file:///x"},
		{"session.ended", "session_1", `{"reason":"done"}`, "done"},
		{"session.joined", "session_1", `{"role":null}`, ""},
		{"workspace.opened", "ws_1", `{"root_path":"/r"}`, "/r"},
		{"report.posted", "report_1", `not json`, ""},
	} {
		if got := eventSummary(c.kind, c.entity, []byte(c.payload), titles); got != c.want {
			t.Errorf("%s %s: got %q, want %q", c.kind, c.payload, got, c.want)
		}
	}
	if got := oneLine("a\n\n b\tc", 10); got != "a b c" {
		t.Errorf("oneLine folds white space: %q", got)
	}
	if got := oneLine("abcdefghijkl", 5); got != "abcd…" {
		t.Errorf("oneLine cuts: %q", got)
	}
}
