package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCoreProfileCarriesAWholeFlow drives two agents on servers started
// with AGENTOOL_COLLAB_TOOLS=core through a full round: sessions, a task
// created, claimed, progressed and handed over, a wait woken by the offer,
// the offer accepted, the work completed and reviewed, a report, polling
// and acknowledging, and the sessions ended.
func TestCoreProfileCarriesAWholeFlow(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	alice, bob := s.start("AGENTOOL_COLLAB_TOOLS=core"), s.start("AGENTOOL_COLLAB_TOOLS=core")
	if tools, err := alice.ListTools(); err != nil || len(tools) != 18 {
		t.Fatalf("core profile lists %d tools (%v)", len(tools), err)
	}
	a := ok(t, alice, "collab_session_start", map[string]any{"root_path": repo, "actor": "alice"})
	b := ok(t, bob, "collab_session_start", map[string]any{"root_path": repo, "actor": "bob"})
	ws, bobID := str(a, "workspace.id"), str(b, "session.id")
	args := func(kv ...any) map[string]any {
		m := map[string]any{"workspace_id": ws}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	ok(t, alice, "collab_task_create", args("task_id", "t1", "idempotency_key", "c1", "title", "parser", "work_mode", "coordination",
		"completion_policy", "accepted"))
	ok(t, alice, "collab_task_list", args())
	task := ok(t, alice, "collab_task_claim", args("task_id", "t1", "idempotency_key", "k1", "expected_version", 1))
	lease := func(task map[string]any, key string, kv ...any) map[string]any {
		m := args("task_id", "t1", "lease_id", str(task, "task.lease_id"), "idempotency_key", key, "expected_version", num(task, "task.version"))
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	task = ok(t, alice, "collab_task_progress", lease(task, "p1", "message", "half done"))
	task = ok(t, alice, "collab_task_renew", lease(task, "r1"))
	offer := ok(t, alice, "collab_handoff_offer", lease(task, "o1", "to_session_id", bobID, "summary", "finish the parser"))
	woke := ok(t, bob, "collab_wait", args("timeout_ms", 20000))
	if str(woke, "reason") != "for_you" {
		t.Fatalf("bob's wait: %v", woke)
	}
	next := ok(t, bob, "collab_next", args("event_limit", 50))
	if n, _ := get(next, "handoff_offers").([]any); len(n) != 1 {
		t.Fatalf("bob's poll shows no offer: %v", next)
	}
	ok(t, bob, "collab_cursor_ack", args("anchor", get(next, "events.next_anchor"), "expected_cursor_version", 0))
	taken := ok(t, bob, "collab_handoff_respond", args("handoff_id", str(offer, "handoff.id"), "idempotency_key", "a1",
		"expected_version", num(offer, "task.version"), "response", "accept"))
	done := ok(t, bob, "collab_task_complete", lease(taken, "d1", "summary", "parser done"))
	ok(t, alice, "collab_task_review", args("task_id", "t1", "idempotency_key", "v1", "expected_version", num(done, "task.version"),
		"outcome", "accept", "summary", "good"))
	ok(t, alice, "collab_report_append", args("idempotency_key", "rep1", "kind", "observation", "body", "merged", "to_session_id", bobID))
	ok(t, alice, "collab_task_get", args("task_id", "t1"))
	ok(t, alice, "collab_workspace_status", args())
	ok(t, alice, "collab_session_end", map[string]any{"reason": "done"})
	ok(t, bob, "collab_session_end", map[string]any{"reason": "done"})
	if r := call(t, bob, "collab_task_recover", args("task_id", "t1")); r.RPCError == nil {
		t.Fatalf("a tool outside the core profile answered: %s", r.Raw)
	}
}

func TestAnUnknownProfileStopsTheServerWithAClearMessage(t *testing.T) {
	s := newSandbox(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = s.env("AGENTOOL_COLLAB_TOOLS=collab_next,collab_bogus")
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(string(out), "unknown tools collab_bogus") {
		t.Fatalf("exit %d (%v): %s", cmd.ProcessState.ExitCode(), err, out)
	}
	if _, err := os.Stat(s.db); err == nil {
		t.Fatal("the server created the database before refusing its profile")
	}
}
