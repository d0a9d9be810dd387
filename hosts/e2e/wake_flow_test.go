package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
	"github.com/agenttool/collab/hosts/plugin"
)

// wakeNotice is the part of peek's one-line notice the tests look for.
const wakeNotice = "1 handoff offered to you"

// wakeSessions are alice and bob, each with a session started through the
// packaged server (both server processes stay alive until the test ends).
type wakeSessions struct {
	alice       *mcptest.Client
	ws          any
	bobID, file string // bob's session and credential file
}

func startWakeSessions(t *testing.T, w world, suffix string) *wakeSessions {
	t.Helper()
	start := func() *mcptest.Client {
		c, err := mcptest.Start([]string{filepath.Join(w.root, plugin.Launcher)}, w.env())
		if err != nil {
			t.Fatalf("start the packaged server: %v", err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	alice, bob := start(), start()
	session := func(c *mcptest.Client, actor string) map[string]any {
		return wakeCall(t, c, "collab_session_start", map[string]any{"root_path": w.project, "actor": actor + suffix, "repository_key": "hosts-e2e"})
	}
	a, b := session(alice, "alice"), session(bob, "bob")
	return &wakeSessions{alice: alice, ws: a["workspace"].(map[string]any)["id"], bobID: b["session"].(map[string]any)["id"].(string),
		file: filepath.Join(filepath.Dir(w.journal), "collab-sessions", b["session_file_name"].(string))}
}

// offer has alice create and claim task and offer it to bob.
func (s *wakeSessions) offer(t *testing.T, task string) {
	t.Helper()
	wakeCall(t, s.alice, "collab_task_create", map[string]any{"workspace_id": s.ws, "task_id": task, "idempotency_key": "c" + task, "title": "wake", "work_mode": "coordination"})
	claimed := wakeCall(t, s.alice, "collab_task_claim", map[string]any{"workspace_id": s.ws, "task_id": task, "idempotency_key": "k" + task, "expected_version": 1})
	tk := claimed["task"].(map[string]any)
	wakeCall(t, s.alice, "collab_handoff_offer", map[string]any{"workspace_id": s.ws, "task_id": task, "lease_id": tk["lease_id"],
		"idempotency_key": "o" + task, "expected_version": tk["version"], "to_session_id": s.bobID, "summary": "take over"})
}

func wakeCall(t *testing.T, c *mcptest.Client, tool string, args map[string]any) map[string]any {
	t.Helper()
	r, err := c.Call(tool, args)
	if err != nil || r.IsError || r.RPCError != nil {
		t.Fatalf("%s: %v %s", tool, err, r.Raw)
	}
	return r.Structured
}

// offerHandoff starts alice's and bob's sessions, has alice offer bob a
// task, and returns bob's credential file and session id.
func offerHandoff(t *testing.T, w world, suffix string) (string, string) {
	t.Helper()
	s := startWakeSessions(t, w, suffix)
	s.offer(t, "wake"+suffix)
	return s.file, s.bobID
}

// bobCursor reads a session's persisted cursor sequence and version.
func bobCursor(t *testing.T, w world, id string) (int64, int64) {
	st, err := backend.Open(context.Background(), backend.Options{Path: w.journal, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := st.Session(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return s.Cursor.Sequence, s.CursorVersion
}

// claudeWakeFlow runs a real Claude Code turn for bob with the installed
// plugin: its SessionStart/UserPromptSubmit hook must put the unread
// notice into a request the mock model receives, without moving bob's
// cursor (the turn calls no tool).
func claudeWakeFlow(ctx context.Context, t *testing.T, w world) {
	file, bobID := offerHandoff(t, w, "-claude")
	seq, version := bobCursor(t, w, bobID)
	mock := &anthropicMock{Mention: wakeNotice}
	srv := mock.start(t)
	env := w.env("DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1", "ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=sk-ant-e2e-dummy",
		"AGENTOOL_COLLAB_SESSION_FILE="+file)
	out := run(ctx, t, cmdSpec{dir: w.project, name: filepath.Join(w.bin, "claude"), args: []string{"-p", "Anything new?"},
		env: env, timeout: 3 * time.Minute})
	if _, _, mentioned := mock.snapshot(); !mentioned {
		t.Fatalf("no request to the model carried the notice %q; claude printed:\n%s", wakeNotice, out)
	}
	if s, v := bobCursor(t, w, bobID); s != seq || v != version {
		t.Fatalf("the hook moved bob's cursor: %d v%d -> %d v%d", seq, version, s, v)
	}
	if strings.Contains(out, file) {
		t.Fatal("claude's output names the credential file")
	}
}
