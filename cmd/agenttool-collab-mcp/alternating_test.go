package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// writers are this server and the reference sharing one database.
type writers struct {
	t     *testing.T
	sb    *sandbox
	impls [2]implementation
	// legacy are long-lived label-mode processes, one per implementation.
	legacy  [2]*mcptest.Client
	retries int
	differ  int
}

// bound starts a fresh process of implementation i resuming session id
// from its credential file; the previous holder is fenced by the resume.
func (w *writers) bound(i int, sessionID string) *mcptest.Client {
	w.t.Helper()
	file := filepath.Join(filepath.Dir(w.sb.db), "collab-sessions", sessionID+".json")
	c, err := mcptest.Start(w.impls[i].argv, w.sb.env("AGENTOOL_COLLAB_SESSION_FILE="+file))
	if err != nil {
		w.t.Fatalf("%s: resume %s: %v", w.impls[i].name, sessionID, err)
	}
	w.t.Cleanup(func() { c.Close() })
	return c
}

// answer is what a client sees of a call: structured content and text.
func answer(t *testing.T, c *mcptest.Client, tool string, args map[string]any) (mcptest.Result, string) {
	t.Helper()
	r, err := c.Call(tool, args)
	if err != nil {
		t.Fatalf("%s: %v\nstderr: %s", tool, err, c.Stderr())
	}
	b, _ := json.Marshal(r.Structured)
	return r, string(b) + "\n" + r.Text
}

// retried writes with one implementation, retries with the other and
// again with the first, and requires all three answers to be identical.
func (w *writers) retried(label string, first, second *mcptest.Client, firstName, secondName, tool string, args map[string]any) map[string]any {
	w.t.Helper()
	r, original := answer(w.t, first, tool, args)
	if r.IsError {
		w.t.Fatalf("%s: %s %s refused: %s", label, firstName, tool, r.Raw)
	}
	for _, again := range []struct {
		c    *mcptest.Client
		name string
	}{{second, secondName}, {first, firstName}} {
		_, replay := answer(w.t, again.c, tool, args)
		w.retries++
		if replay != original {
			w.differ++
			w.t.Errorf("%s: %s written by %s, retried by %s:\n original: %s\n replay:   %s", label, tool, firstName, again.name,
				original, replay)
		}
	}
	return r.Structured
}

// TestAlternatingWritersReplayTheOriginalAnswer shares one database
// between this server and the reference: every kind of idempotent
// mutation is written by one and retried with the same key by the other
// (in both directions), and each retry must give the original answer.
// Both implementations must then verify the whole chain.
func TestAlternatingWritersReplayTheOriginalAnswer(t *testing.T) {
	ref := referenceImplementation(t)
	for _, firstIsRef := range []bool{false, true} {
		name := "collab writes first"
		if firstIsRef {
			name = "reference writes first"
		}
		t.Run(name, func(t *testing.T) {
			sb := newSandbox(t)
			w := &writers{t: t, sb: sb, impls: [2]implementation{thisImplementation(), ref}}
			if firstIsRef {
				w.impls[0], w.impls[1] = w.impls[1], w.impls[0]
			}
			for i := range w.impls {
				c, err := mcptest.Start(w.impls[i].argv, sb.env())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { c.Close() })
				w.legacy[i] = c
			}
			alternatingScript(w, differentialRepo(sb))
			t.Logf("%d cross-implementation retries compared, %d differ", w.retries, w.differ)
		})
	}
}

func alternatingScript(w *writers, repo string) {
	t := w.t
	step := 0
	// legacyCall writes with the implementation whose turn it is.
	legacyCall := func(tool string, args map[string]any) map[string]any {
		i := step % 2
		step++
		return w.retried("legacy", w.legacy[i], w.legacy[1-i], w.impls[i].name, w.impls[1-i].name, tool, args)
	}
	ws := str(ok(t, w.legacy[0], "collab_workspace_open", map[string]any{"root_path": repo, "actor": "carol"}), "workspace.id")
	la := func(extra map[string]any) map[string]any {
		return merge(map[string]any{"workspace_id": ws, "actor": "carol"}, extra)
	}
	legacyCall("collab_task_create", la(map[string]any{"idempotency_key": "l-create", "task_id": "lt", "title": "Legacy\u2028task"}))
	lease := str(legacyCall("collab_task_claim", la(map[string]any{"idempotency_key": "l-claim", "task_id": "lt", "expected_version": 1})), "task.lease_id")
	lm := func(key string, v int, extra map[string]any) map[string]any {
		return la(merge(map[string]any{"idempotency_key": key, "task_id": "lt", "lease_id": lease, "expected_version": v}, extra))
	}
	legacyCall("collab_task_renew", lm("l-renew", 2, nil))
	legacyCall("collab_task_progress", lm("l-progress", 3, map[string]any{"message": "m"}))
	legacyCall("collab_artifact_attach", lm("l-attach", 4, map[string]any{"kind": "url", "uri": "https://example.com/x"}))
	legacyCall("collab_decision_record", la(map[string]any{"idempotency_key": "l-decide", "topic": "t", "decision": "d"}))
	legacyCall("collab_task_block", lm("l-block", 5, map[string]any{"blocker": "b"}))
	legacyCall("collab_task_unblock", la(map[string]any{"idempotency_key": "l-unblock", "task_id": "lt", "expected_version": 6}))
	lease = str(legacyCall("collab_task_claim", la(map[string]any{"idempotency_key": "l-claim-2", "task_id": "lt", "expected_version": 7})), "task.lease_id")
	o := legacyCall("collab_handoff_offer", lm("l-offer", 8, map[string]any{"to_actor": "dave", "summary": "s"}))
	legacyCall("collab_handoff_respond", map[string]any{"workspace_id": ws, "actor": "dave", "idempotency_key": "l-decline",
		"handoff_id": str(o, "handoff.id"), "expected_version": 9, "response": "decline"})
	legacyCall("collab_task_release", lm("l-release", 10, nil))
	lease = str(legacyCall("collab_task_claim", la(map[string]any{"idempotency_key": "l-claim-3", "task_id": "lt", "expected_version": 11})), "task.lease_id")
	legacyCall("collab_task_complete", lm("l-complete", 12, map[string]any{"summary": "done"}))
	p := ok(t, w.legacy[0], "collab_session_join", map[string]any{"workspace_id": ws, "client_instance_id": "c1", "actor_label": "carol", "runtime_kind": "codex"})
	pid := str(p, "session.id")
	legacyCall("collab_session_heartbeat", map[string]any{"session_id": pid, "idempotency_key": "p-beat", "expected_version": 1})
	legacyCall("collab_session_leave", map[string]any{"session_id": pid, "idempotency_key": "p-leave", "expected_version": 2})

	// Session plane: each write resumes the session in a fresh process of
	// the implementation whose turn it is; the retry resumes it in the other.
	a := ok(t, w.legacy[0], "collab_session_start", map[string]any{"root_path": repo, "actor": "alice"})
	b := ok(t, w.legacy[1], "collab_session_start", map[string]any{"root_path": repo, "actor": "bob"})
	aID, bID := str(a, "session.id"), str(b, "session.id")
	sessionCall := func(sessionID, tool string, args map[string]any) map[string]any {
		i := step % 2
		step++
		first := w.bound(i, sessionID)
		r, original := answer(t, first, tool, merge(map[string]any{"workspace_id": ws}, args))
		if r.IsError {
			t.Fatalf("%s %s refused: %s", w.impls[i].name, tool, r.Raw)
		}
		for _, k := range []int{1 - i, i} {
			c := w.bound(k, sessionID)
			_, replay := answer(t, c, tool, merge(map[string]any{"workspace_id": ws}, args))
			w.retries++
			if replay != original {
				w.differ++
				t.Errorf("session: %s written by %s, retried by %s:\n original: %s\n replay:   %s", tool, w.impls[i].name,
					w.impls[k].name, original, replay)
			}
		}
		return r.Structured
	}
	sessionCall(aID, "collab_task_create", map[string]any{"idempotency_key": "s-create", "task_id": "ft", "title": "F", "path_scopes": []any{"src"}})
	sessionCall(aID, "collab_task_create", map[string]any{"idempotency_key": "s-create-2", "task_id": "ct", "title": "C", "work_mode": "coordination"})
	sl := str(sessionCall(aID, "collab_task_claim", map[string]any{"idempotency_key": "s-claim", "task_id": "ft", "expected_version": 1}), "task.lease_id")
	fl := func(key string, v int, extra map[string]any) map[string]any {
		return merge(map[string]any{"idempotency_key": key, "task_id": "ft", "lease_id": sl, "expected_version": v}, extra)
	}
	sessionCall(aID, "collab_task_renew", fl("s-renew", 2, nil))
	sessionCall(aID, "collab_task_progress", fl("s-progress", 3, map[string]any{"message": "m"}))
	sessionCall(aID, "collab_artifact_attach", fl("s-attach", 4, map[string]any{"kind": "file", "uri": "file:///src/a"}))
	o2 := sessionCall(aID, "collab_handoff_offer", fl("s-offer", 5, map[string]any{"to_session_id": bID, "summary": "s"}))
	acc := sessionCall(bID, "collab_handoff_respond", map[string]any{"idempotency_key": "s-accept", "handoff_id": str(o2, "handoff.id"),
		"expected_version": 6, "response": "accept"})
	sessionCall(bID, "collab_task_complete", map[string]any{"idempotency_key": "s-complete", "task_id": "ft", "lease_id": str(acc, "task.lease_id"),
		"expected_version": 7, "summary": "done"})
	sessionCall(aID, "collab_task_review", map[string]any{"idempotency_key": "s-review", "task_id": "ft", "expected_version": 8,
		"outcome": "request_changes", "summary": "more"})
	cl := str(sessionCall(aID, "collab_task_claim", map[string]any{"idempotency_key": "s-claim-c", "task_id": "ct", "expected_version": 1}), "task.lease_id")
	sessionCall(aID, "collab_task_block", map[string]any{"idempotency_key": "s-block", "task_id": "ct", "lease_id": cl, "expected_version": 2, "blocker": "b"})
	sessionCall(bID, "collab_task_unblock", map[string]any{"idempotency_key": "s-unblock", "task_id": "ct", "expected_version": 3})
	cl = str(sessionCall(bID, "collab_task_claim", map[string]any{"idempotency_key": "s-claim-c2", "task_id": "ct", "expected_version": 4}), "task.lease_id")
	sessionCall(bID, "collab_task_release", map[string]any{"idempotency_key": "s-release", "task_id": "ct", "lease_id": cl, "expected_version": 5})
	sessionCall(aID, "collab_report_append", map[string]any{"idempotency_key": "s-report", "kind": "proposal", "body": "p\u2029q"})
	sessionCall(aID, "collab_decision_record", map[string]any{"idempotency_key": "s-decide", "topic": "t", "decision": "d",
		"authority_scope": "repo", "authority_basis": "owner"})

	for i := range w.impls {
		c := w.bound(i, aID)
		v := ok(t, c, "collab_journal_verify", map[string]any{"workspace_id": ws})
		if raw, _ := json.Marshal(v); !bytes.Contains(raw, []byte(`"chain_valid":true`)) {
			t.Errorf("%s does not verify the shared chain: %s", w.impls[i].name, raw)
		}
	}
}
