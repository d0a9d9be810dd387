package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/buildinfo"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

const genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// legacyWorkspace opens a workspace and creates n tasks, returning its id.
func legacyWorkspace(t *testing.T, s *sandbox, n int) (string, func(string, map[string]any) map[string]any) {
	c := s.start()
	ws := str(ok(t, c, "collab_workspace_open", map[string]any{"root_path": s.repo("main", nil), "actor": "a"}), "workspace.id")
	for i := 0; i < n; i++ {
		ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "a",
			"idempotency_key": "k" + string(rune('a'+i)), "title": "task"})
	}
	return ws, func(tool string, args map[string]any) map[string]any { return ok(t, c, tool, args) }
}

func TestEventsSincePagesByAnchorOrSequence(t *testing.T) {
	s := newSandbox(t)
	ws, okCall := legacyWorkspace(t, s, 4)
	c := s.start()
	first := okCall("collab_events_since", map[string]any{"workspace_id": ws, "limit": 2})
	if len(get(first, "events").([]any)) != 2 || !get(first, "has_more").(bool) || num(first, "next_cursor") != 2 {
		t.Fatalf("first page wrong: %v", first)
	}
	anchor := get(first, "next_anchor").(map[string]any)
	byAnchor := okCall("collab_events_since", map[string]any{"workspace_id": ws, "after_anchor": anchor})
	bySeq := okCall("collab_events_since", map[string]any{"workspace_id": ws, "after_sequence": 2})
	a, _ := json.Marshal(byAnchor)
	b, _ := json.Marshal(bySeq)
	if !bytes.Equal(a, b) || num(bySeq, "head_sequence") != 5 || get(bySeq, "has_more").(bool) {
		t.Fatalf("anchor and sequence paging disagree:\n%s\n%s", a, b)
	}
	forged := map[string]any{"epoch_id": anchor["epoch_id"], "sequence": 2, "hash": strings.Repeat("a", 64)}
	cases := []struct {
		name string
		args map[string]any
		code string
	}{
		{"both cursors", map[string]any{"after_sequence": 1, "after_anchor": anchor}, "ambiguous_cursor"},
		{"sequence ahead", map[string]any{"after_sequence": 9}, "invalid_cursor"},
		{"anchor ahead", map[string]any{"after_anchor": map[string]any{"epoch_id": anchor["epoch_id"], "sequence": 9, "hash": genesis}}, "cursor_ahead"},
		{"forked anchor", map[string]any{"after_anchor": forged}, "cursor_fork_detected"},
		{"foreign epoch", map[string]any{"after_anchor": map[string]any{"epoch_id": "epoch_x", "sequence": 1, "hash": genesis}}, "cursor_mismatch"},
		{"bad genesis", map[string]any{"after_anchor": map[string]any{"epoch_id": anchor["epoch_id"], "sequence": 0, "hash": strings.Repeat("b", 64)}}, "cursor_fork_detected"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.args["workspace_id"] = ws
			refused(t, c, "collab_events_since", tc.args, tc.code)
		})
	}
}

func TestJournalVerifyDetectsTampering(t *testing.T) {
	s := newSandbox(t)
	ws, okCall := legacyWorkspace(t, s, 2)
	v := okCall("collab_journal_verify", map[string]any{"workspace_id": ws})
	if v["chain_valid"] != true || v["verification_scope"] != "full_journal" {
		t.Fatalf("fresh journal did not verify: %v", v)
	}
	db, err := sql.Open("sqlite", s.db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE events SET payload_json = replace(payload_json, '"task"', '"TASK"') WHERE sequence = 2`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	v = okCall("collab_journal_verify", map[string]any{"workspace_id": ws})
	if v["chain_valid"] != false {
		t.Fatalf("tampered journal verified: %v", v)
	}
	page := okCall("collab_events_since", map[string]any{"workspace_id": ws, "after_sequence": 1, "limit": 1})
	if page["chain_valid"] != false {
		t.Fatalf("tampered page verified: %v", page)
	}
	if c, err := mcptest.Start([]string{os.Args[0]}, s.env()); err == nil {
		c.Close()
		t.Fatal("a server opened a database whose journal fails verification")
	} else if !strings.Contains(err.Error(), "database_journal_invalid") {
		t.Fatalf("startup refusal should name database_journal_invalid: %v", err)
	}
}

func TestAnchorStatusReadsOnlyTheHostLedger(t *testing.T) {
	s := newSandbox(t)
	ws, okCall := legacyWorkspace(t, s, 1)
	st := okCall("collab_anchor_status", map[string]any{"workspace_id": ws})
	if st["status"] != "unanchored" || st["ledger_readable"] != false {
		t.Fatalf("missing ledger should be unanchored: %v", st)
	}
	w := okCall("collab_workspace_status", map[string]any{"workspace_id": ws})["workspace"].(map[string]any)
	ledger := filepath.Join(s.root, "ledger.json")
	body, _ := json.Marshal(map[string]any{"protocol": "agenttool.collab-zerone-ledger/0.1", "updated_at": "2026-01-01T00:00:00.000Z",
		"anchors": []any{map[string]any{"workspace_id": ws, "epoch_id": w["epoch_id"], "sequence": w["event_head_sequence"],
			"head_hash": w["event_head_hash"], "network": "test", "status": "confirmed"}}})
	os.WriteFile(ledger, body, 0o600)
	c := s.start("AGENTOOL_COLLAB_ANCHOR_LEDGER=" + ledger)
	st = ok(t, c, "collab_anchor_status", map[string]any{"workspace_id": ws})
	if st["status"] != "anchored" || num(st, "lag_events") != 0 {
		t.Fatalf("confirmed anchor at head should be anchored: %v", st)
	}
	raw, _ := json.Marshal(st)
	if strings.Contains(string(raw), ledger) {
		t.Fatal("anchor status leaked the ledger path")
	}
	refused(t, c, "collab_anchor_status", map[string]any{"workspace_id": "ws_nope"}, "workspace_not_found")
}

func TestInvalidArgumentsAreRejectedBeforeAnythingIsWritten(t *testing.T) {
	s := newSandbox(t)
	ws, _ := legacyWorkspace(t, s, 0)
	c := s.start()
	before := countRows(t, s.db, "SELECT count(*) FROM events")
	cases := []struct {
		tool, mention string
		args          map[string]any
	}{
		{"collab_task_create", "title", map[string]any{"workspace_id": ws, "actor": "a", "idempotency_key": "k", "title": strings.Repeat("t", 301)}},
		{"collab_task_create", "title", map[string]any{"workspace_id": ws, "actor": "a", "idempotency_key": "k", "title": 5}},
		{"collab_task_create", "path_scopes", map[string]any{"workspace_id": ws, "actor": "a", "idempotency_key": "k", "title": "t", "path_scopes": "src"}},
		{"collab_task_claim", "ttl_seconds", map[string]any{"workspace_id": ws, "actor": "a", "idempotency_key": "k", "task_id": "x", "expected_version": 1, "ttl_seconds": 29}},
		{"collab_task_claim", "expected_version", map[string]any{"workspace_id": ws, "actor": "a", "idempotency_key": "k", "task_id": "x", "expected_version": 1.5}},
		{"collab_next", "event_limit", map[string]any{"workspace_id": ws, "actor": "a", "event_limit": 51}},
		{"collab_workspace_open", "root_path", map[string]any{"actor": "a"}},
	}
	for _, tc := range cases {
		r := call(t, c, tc.tool, tc.args)
		if !r.IsError || r.Structured != nil || !strings.Contains(r.Text, tc.mention) {
			t.Errorf("%s %v: want an input rejection naming %s, got %s", tc.tool, tc.args, tc.mention, r.Raw)
		}
	}
	surrogate := json.RawMessage(`{"workspace_id":"` + ws + `","actor":"a","idempotency_key":"k","title":"bad \ud800 text"}`)
	if r, err := c.CallRaw("collab_task_create", surrogate); err != nil || r.Structured != nil || !strings.Contains(r.Text, "title") {
		t.Errorf("an unpaired surrogate in title should be rejected naming title: %v %s", err, r.Raw)
	}
	if after := countRows(t, s.db, "SELECT count(*) FROM events"); after != before {
		t.Fatalf("rejected calls wrote %d events", after-before)
	}
	r := call(t, c, "collab_not_a_tool", map[string]any{})
	if r.RPCError == nil || r.RPCError.Code != -32602 {
		t.Fatalf("unknown tool should be JSON-RPC -32602, got %s", r.Raw)
	}
}

func TestCommandLineBasics(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--version"}, 0, "agenttool-collab-mcp " + buildinfo.Version(version)},
		{[]string{"--help"}, 0, "serve MCP over stdio"},
		{[]string{"frobnicate"}, 2, "unknown command"},
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), tc.args, strings.NewReader(""), &out, &errOut)
		if code != tc.code || !strings.Contains(out.String()+errOut.String(), tc.want) {
			t.Errorf("%v: exit %d, output %q%q", tc.args, code, out.String(), errOut.String())
		}
	}
}

func TestServerWritesOnlyJSONRPCToStdout(t *testing.T) {
	s := newSandbox(t)
	c := s.start()
	ok(t, c, "collab_workspace_open", map[string]any{"root_path": s.repo("main", nil), "actor": "a"})
	if code := c.Close(); code != 0 {
		t.Fatalf("server exited %d on stdin EOF", code)
	}
	if !strings.Contains(c.Stderr(), "MCP ready") {
		t.Fatalf("no readiness line on stderr: %q", c.Stderr())
	}
	// Every stdout line was parsed as JSON by the client, or Start/Call would have failed.
	if info, _ := json.Marshal(c.Initialize["serverInfo"]); !strings.Contains(string(info), `"agenttool-collab"`) {
		t.Fatalf("server name wrong: %s", info)
	}
}
