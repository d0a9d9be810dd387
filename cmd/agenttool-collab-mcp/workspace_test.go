package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

func TestWorkspaceOpenResolvesRepositoryOnceAndJournalsIt(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"README.md": "# x\n", "sub/file.txt": "x\n"})
	c := s.start()
	first := ok(t, c, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "alice"})
	again := ok(t, c, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "bob"})
	sub := ok(t, c, "collab_workspace_open", map[string]any{"root_path": filepath.Join(repo, "sub"), "actor": "carol"})
	id := str(first, "workspace.id")
	if !strings.HasPrefix(id, "ws_") || len(id) != 27 {
		t.Fatalf("workspace id %q is not ws_ + 24 hex", id)
	}
	for _, w := range []map[string]any{again, sub} {
		if str(w, "workspace.id") != id || num(w, "workspace.event_head_sequence") != 1 {
			t.Fatalf("re-open changed the workspace or journal: %v", w)
		}
	}
	if !strings.HasPrefix(str(first, "workspace.repository_key"), "local-git:") {
		t.Fatalf("Git repository keyed as %q", str(first, "workspace.repository_key"))
	}
	page := ok(t, c, "collab_events_since", map[string]any{"workspace_id": id})
	events := get(page, "events").([]any)
	if len(events) != 1 || str(events[0], "type") != "workspace.opened" || !get(page, "chain_valid").(bool) {
		t.Fatalf("unexpected journal after three opens: %v", page)
	}
}

func TestWorkspaceOpenRefusesWithoutWriting(t *testing.T) {
	s := newSandbox(t)
	c := s.start()
	notDir := filepath.Join(s.root, "file.txt")
	os.WriteFile(notDir, []byte("x"), 0o644)
	cases := []struct {
		name string
		args map[string]any
		code string
	}{
		{"missing directory", map[string]any{"root_path": filepath.Join(s.root, "absent"), "actor": "a"}, "workspace_not_directory"},
		{"file instead of directory", map[string]any{"root_path": notDir, "actor": "a"}, "workspace_not_directory"},
		{"blank actor", map[string]any{"root_path": s.root, "actor": "   "}, "invalid_actor"},
		{"blank explicit name", map[string]any{"root_path": s.root, "actor": "a", "name": " "}, "invalid_name"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			refused(t, c, "collab_workspace_open", tc.args, tc.code)
		})
	}
	if n := countRows(t, s.db, "SELECT count(*) FROM workspaces"); n != 0 {
		t.Fatalf("refused opens wrote %d workspaces", n)
	}
}

func TestWorkspaceStatusCountsTasksByEffectiveStatus(t *testing.T) {
	s := newSandbox(t)
	c := s.start()
	ws := str(ok(t, c, "collab_workspace_open", map[string]any{"root_path": s.repo("main", nil), "actor": "a"}), "workspace.id")
	for i, id := range []string{"t1", "t2", "t3"} {
		ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "a", "idempotency_key": "k" + id,
			"task_id": id, "title": "task " + string(rune('A'+i))})
	}
	claimed := ok(t, c, "collab_task_claim", map[string]any{"workspace_id": ws, "actor": "a", "idempotency_key": "c1",
		"task_id": "t1", "expected_version": 1})
	ok(t, c, "collab_task_block", map[string]any{"workspace_id": ws, "actor": "a", "idempotency_key": "b1", "task_id": "t1",
		"lease_id": str(claimed, "task.lease_id"), "expected_version": 2, "blocker": "waiting on review"})
	ok(t, c, "collab_task_claim", map[string]any{"workspace_id": ws, "actor": "b", "idempotency_key": "c2", "task_id": "t2",
		"expected_version": 1})
	st := ok(t, c, "collab_workspace_status", map[string]any{"workspace_id": ws})
	want := map[string]int64{"counts.open": 1, "counts.claimed": 1, "counts.blocked": 1, "counts.completed": 0, "expired_claims": 0}
	for path, n := range want {
		if got := num(st, path); got != n {
			t.Errorf("%s = %d, want %d", path, got, n)
		}
	}
	if len(get(st, "active_claims").([]any)) != 1 || len(get(st, "blocked_tasks").([]any)) != 1 {
		t.Errorf("projections wrong: %v", st)
	}
	refused(t, c, "collab_workspace_status", map[string]any{"workspace_id": "ws_missing"}, "workspace_not_found")
}

func countRows(t *testing.T, db, query string) int {
	t.Helper()
	conn, err := openInspector(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRow(inspect(conn, query)).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func TestCallsWrittenBeforeStdinClosesAreAllAnswered(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", nil)
	var in strings.Builder
	in.WriteString(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	for i := 2; i <= 6; i++ {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"collab_workspace_open","arguments":{"root_path":%q,"actor":"a"}}}`+"\n", i, repo)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = s.env()
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("server: %v", err)
	}
	answered := map[float64]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var msg map[string]any
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("stdout line is not JSON: %q", line)
		}
		if id, ok := msg["id"].(float64); ok && msg["result"] != nil {
			answered[id] = true
		}
	}
	for id := 1.0; id <= 6; id++ {
		if !answered[id] {
			t.Fatalf("request %v was not answered before exit: %s", id, out)
		}
	}
}
