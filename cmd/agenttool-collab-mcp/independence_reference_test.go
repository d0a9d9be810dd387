package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// TestReferenceContinuesAJournalWithIndependenceClaims has this server
// write every kind of independence event (a claim released by a finding, a
// blind review, a claim released explicitly, a topic claim left open) and
// then hands the database to the reference: it must verify the chain, read
// the events, reports and task, and append to the journal, after which this
// server verifies the chain and still sees the claims.
func TestReferenceContinuesAJournalWithIndependenceClaims(t *testing.T) {
	ref := referenceImplementation(t)
	sb := newSandbox(t)
	repo := differentialRepo(sb)
	start := func(impl implementation, extra ...string) *mcptest.Client {
		c, err := mcptest.Start(impl.argv, sb.env(extra...))
		if err != nil {
			t.Fatalf("%s: %v", impl.name, err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	ours := thisImplementation()
	a, b := start(ours), start(ours)
	ws := str(ok(t, a, "collab_session_start", map[string]any{"root_path": repo, "actor": "alice"}), "session.workspace_id")
	ok(t, b, "collab_session_start", map[string]any{"root_path": repo, "actor": "ben"})
	in := func(extra map[string]any) map[string]any { return merge(map[string]any{"workspace_id": ws}, extra) }
	ok(t, a, "collab_task_create", in(map[string]any{"idempotency_key": "c", "task_id": "rl", "title": "Rate limiter", "completion_policy": "accepted", "path_scopes": []any{"src"}}))
	lease := str(ok(t, a, "collab_task_claim", in(map[string]any{"idempotency_key": "k", "task_id": "rl", "expected_version": 1})), "task.lease_id")
	art := str(ok(t, a, "collab_artifact_attach", in(map[string]any{"idempotency_key": "at", "task_id": "rl", "lease_id": lease,
		"expected_version": 2, "kind": "url", "uri": "https://example.com/load-test"})), "artifact.id")
	ok(t, a, "collab_task_complete", in(map[string]any{"idempotency_key": "d", "task_id": "rl", "lease_id": lease, "expected_version": 3,
		"summary": "limits hold under load", "evidence_refs": []any{"artifact:" + art}}))
	ok(t, b, "collab_independence_claim", in(map[string]any{"task_id": "rl", "note": "re-verifying"}))
	ok(t, b, "collab_report_append", in(map[string]any{"idempotency_key": "f", "task_id": "rl", "kind": "observation", "body": "my own finding"}))
	ok(t, b, "collab_task_review", in(map[string]any{"idempotency_key": "r", "task_id": "rl", "expected_version": 4, "outcome": "request_changes", "summary": "one gap"}))
	topic := str(ok(t, b, "collab_independence_claim", in(map[string]any{"topic": "gate-audit"})), "claim.id")
	ok(t, b, "collab_independence_release", in(map[string]any{"claim_id": topic, "reason": "no longer needed"}))
	ok(t, a, "collab_independence_claim", in(map[string]any{"topic": "other", "ttl_seconds": 600}))
	list := ok(t, a, "collab_independence_list", in(nil))
	if n := len(get(list, "independent_reviews").([]any)); n != 1 {
		t.Fatalf("independent reviews before the reference = %d, want 1: %v", n, list)
	}

	r := start(ref)
	if v := ok(t, r, "collab_journal_verify", in(nil)); v["chain_valid"] != true {
		t.Fatalf("the reference does not verify a journal with claims: %v", v)
	}
	page := ok(t, r, "collab_events_since", in(map[string]any{"limit": 100}))
	raw, _ := json.Marshal(page)
	for _, kind := range []string{"independence.claimed", "independence.released", "independence.review_marked"} {
		if !bytes.Contains(raw, []byte(`"type":"`+kind+`"`)) {
			t.Errorf("the reference's events page lacks %s", kind)
		}
	}
	ok(t, r, "collab_report_list", in(nil))
	ok(t, r, "collab_task_get", in(map[string]any{"task_id": "rl"}))
	ok(t, r, "collab_workspace_status", in(nil))
	ok(t, r, "collab_session_start", map[string]any{"root_path": repo, "actor": "carol"})
	ok(t, r, "collab_next", in(map[string]any{"event_limit": 50}))
	ok(t, r, "collab_report_append", in(map[string]any{"idempotency_key": "ref", "task_id": "rl", "kind": "observation", "body": "the reference appends"}))
	ok(t, r, "collab_task_create", in(map[string]any{"idempotency_key": "ref-t", "task_id": "next", "title": "Next", "work_mode": "coordination"}))
	if v := ok(t, r, "collab_journal_verify", in(nil)); v["chain_valid"] != true {
		t.Fatalf("the reference does not verify after appending: %v", v)
	}

	c := start(ours)
	if v := ok(t, c, "collab_journal_verify", in(nil)); v["chain_valid"] != true {
		t.Fatalf("this server does not verify after the reference appended: %v", v)
	}
	after := ok(t, c, "collab_independence_list", in(map[string]any{"status": "open"}))
	if n := len(get(after, "claims").([]any)); n != 1 {
		t.Errorf("open claims after the reference = %d, want 1: %v", n, after)
	}
}
