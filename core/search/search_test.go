package search_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/search"
)

func TestEverySearchableKindIsFound(t *testing.T) {
	ix := openIndex(t, openStore(t, copyFixture(t)))
	cases := []struct {
		name, query, kind, eventType, id string
	}{
		{"unaddressed report body", "scanIdentifier units", "report", "report.posted", "report_c04df397-6815-4746-aac8-9db263e58509"},
		{"report limits", "string literals audited", "report", "report.posted", "report_c04df397-6815-4746-aac8-9db263e58509"},
		{"decision report", "normalisation policy", "decision", "report.posted", "report_31095137-9145-45c1-bc45-d3444d2e9a87"},
		{"legacy decision topic", "release cadence", "decision", "decision.recorded", "decision_13864664-e360-425e-a24a-82420f160225"},
		{"legacy decision text", "docs land", "decision", "decision.recorded", "decision_13864664-e360-425e-a24a-82420f160225"},
		{"task title", "CHANGELOG legacy", "task", "task.created", ""},
		{"task description", "tokenizes identifier", "task", "task.created", ""},
		{"progress note", "surrogate pairs split", "progress", "task.progressed", ""},
		{"review comment", "lone-surrogate acceptance", "review", "task.changes_requested", ""},
		{"handoff summary", "uber simple follow", "handoff", "handoff.offered", ""},
		{"artifact name", "rfc-parser.md", "artifact", "artifact.attached", "artifact_9cda3df8-7341-4c81-b738-cd1a1037f7dc"},
		{"blocker", "timer resolution", "task", "task.blocked", ""},
		{"field only in an event payload", "host will not resume", "session", "session.ended", ""},
		{"cursor reset reason", "deliberate replay", "session", "session.cursor_reset", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := find(t, ix, search.Query{Text: c.query, Limit: 50})
			for _, h := range res.Hits {
				if h.Kind == c.kind && h.EventType == c.eventType && (c.id == "" || h.ID == c.id) {
					if !strings.Contains(h.Snippet, "**") {
						t.Errorf("snippet %q marks no match", h.Snippet)
					}
					if h.Sequence <= 0 || h.OccurredAt == "" || h.Actor == "" || h.WorkspaceID == "" {
						t.Errorf("hit does not say where it is: %+v", h)
					}
					return
				}
			}
			t.Fatalf("no %s/%s hit for %q in %+v", c.kind, c.eventType, c.query, res.Hits)
		})
	}
}

func TestHitsNameTheirTaskActorAndSession(t *testing.T) {
	ix := openIndex(t, openStore(t, copyFixture(t)))
	res := find(t, ix, search.Query{WorkspaceID: fixtureWS, Text: "host will not resume"})
	if len(res.Hits) != 1 {
		t.Fatalf("want exactly the session.ended event, got %+v", res.Hits)
	}
	h := res.Hits[0]
	if h.SessionID == nil || *h.SessionID != "session_d0f053df-8bbb-4794-8ec2-1cff157d3eb2" || h.Sequence != 40 || h.TaskID != nil {
		t.Errorf("hit %+v", h)
	}
	res = find(t, ix, search.Query{WorkspaceID: fixtureWS, Text: "surrogate pairs split"})
	if len(res.Hits) == 0 || res.Hits[0].TaskID == nil || *res.Hits[0].TaskID == "" {
		t.Fatalf("progress hit names no task: %+v", res.Hits)
	}
}

func TestPersonTypedQueriesNeverFailOnSyntax(t *testing.T) {
	ix := openIndex(t, openStore(t, copyFixture(t)))
	cases := []struct {
		query string
		want  bool // whether at least one hit is expected
	}{
		{`"scanIdentifier`, true},
		{`reason: host resume`, true},
		{`timer resolution -`, true},
		{`release AND`, true},
		{`OR NOT`, true}, // as words: "not covered by the new test"
		{`C++ "tokens`, true},
		{`Go's identifier rules`, true},
		{`{"token":…}`, true},
		{`(unbalanced`, false},
		{`rfc-parser.md`, true},
	}
	for _, c := range cases {
		res, err := ix.Search(context.Background(), search.Query{Text: c.query})
		if err != nil {
			t.Errorf("%q: %v", c.query, err)
			continue
		}
		if got := len(res.Hits) > 0; got != c.want {
			t.Errorf("%q (run as %s): %d hits", c.query, res.Interpreted, len(res.Hits))
		}
	}
}

func TestFTS5SyntaxIsHonoured(t *testing.T) {
	ix := openIndex(t, openStore(t, copyFixture(t)))
	cases := []struct {
		query    string
		contains string
		excludes string
	}{
		{`"release cadence"`, "cadence", ""},
		{`scanIdent*`, "scanIdentifier", ""},
		{`surrogate NOT lone`, "surrogate", "Lone"},
		{`cadence OR changelog`, "", ""},
	}
	for _, c := range cases {
		res := find(t, ix, search.Query{Text: c.query, Limit: 50})
		if res.Interpreted != c.query {
			t.Errorf("%q was rewritten to %q", c.query, res.Interpreted)
		}
		if len(res.Hits) == 0 {
			t.Errorf("%q found nothing", c.query)
		}
		for _, h := range res.Hits {
			if c.excludes != "" && strings.Contains(h.Snippet, "**"+c.excludes) {
				t.Errorf("%q: snippet %q matches the excluded term", c.query, h.Snippet)
			}
		}
	}
	or := find(t, ix, search.Query{Text: "cadence OR changelog", Limit: 50})
	kinds := map[string]bool{}
	for _, h := range or.Hits {
		kinds[h.Kind] = true
	}
	if !kinds["decision"] || !kinds["task"] {
		t.Errorf("OR found kinds %v, want decision and task", kinds)
	}
}

func TestEmptyQueryIsRefused(t *testing.T) {
	ix := openIndex(t, openStore(t, copyFixture(t)))
	for _, q := range []string{"", "   ", `"" - *`} {
		if _, err := ix.Search(context.Background(), search.Query{Text: q}); err == nil || !strings.Contains(err.Error(), "no word") {
			t.Errorf("%q: %v", q, err)
		}
	}
}

func TestNoPathReachesTheIndex(t *testing.T) {
	ix := openIndex(t, openStore(t, copyFixture(t)))
	for _, q := range []string{"agenttool-collab-fixtures", "tmp", "app-wt-feature", "local-git"} {
		res := find(t, ix, search.Query{Text: q, Limit: 50})
		for _, h := range res.Hits {
			if strings.Contains(h.Snippet, "agenttool-collab-fixtures") || strings.Contains(h.Snippet, "/tmp/") {
				t.Errorf("%q: snippet leaks a path: %q", q, h.Snippet)
			}
		}
		if q == "agenttool-collab-fixtures" && len(res.Hits) != 0 {
			t.Errorf("the workspace root path is searchable: %+v", res.Hits)
		}
	}
}
