package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/mcp"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// channelOn is the environment that turns the Claude Code channel on.
const channelOn = mcp.ChannelEnv + "=1"

// newChannelPair is alice on a plain server and bob on a server started
// with extra (the channel on or off), each with a session it started.
func newChannelPair(t *testing.T, extra ...string) *wakePair {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	alice, a, _ := startSession(t, s, repo, "alice")
	bob := s.start(extra...)
	b := ok(t, bob, "collab_session_start", map[string]any{"root_path": repo, "actor": "bob"})
	return &wakePair{s: s, alice: alice, bob: bob, ws: str(a, "workspace.id"), aliceID: str(a, "session.id"),
		bobID: str(b, "session.id"), bobFile: filepath.Join(filepath.Dir(s.db), "collab-sessions", str(b, "session_file_name"))}
}

// nextChannel waits for bob's next channel notification and checks the
// shape every one must have: params {content, meta}, no id, meta keys of
// the shape Claude Code keeps and never its own "source", no secret.
func (w *wakePair) nextChannel(t *testing.T, c *mcptest.Client) (string, map[string]any) {
	t.Helper()
	n, err := c.WaitNotification(mcp.ChannelMethod, wakeDeadline)
	if err != nil {
		t.Fatal(err)
	}
	raw := n["_raw"].(string)
	if _, hasID := n["id"]; hasID || n["jsonrpc"] != "2.0" {
		t.Fatalf("not a JSON-RPC notification: %s", raw)
	}
	params, _ := n["params"].(map[string]any)
	content, _ := params["content"].(string)
	meta, _ := params["meta"].(map[string]any)
	if content == "" || meta == nil || len(params) != 2 {
		t.Fatalf("params must be {content, meta}: %s", raw)
	}
	key := regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
	for k, v := range meta {
		if _, isString := v.(string); !key.MatchString(k) || k == "source" || !isString {
			t.Fatalf("meta entry %q=%v would be dropped or duplicated by Claude Code: %s", k, v, raw)
		}
	}
	cred := readCredential(t, w.bobFile)
	if strings.Contains(raw, cred["session_token"].(string)) || strings.Contains(raw, filepath.Dir(w.bobFile)) {
		t.Fatalf("the notification carries a secret: %s", raw)
	}
	return content, meta
}

func TestChannelPushesOneNoticePerHandoffWithoutMovingTheCursor(t *testing.T) {
	w := newChannelPair(t, channelOn)
	caps, _ := w.bob.Initialize["capabilities"].(map[string]any)
	exp, _ := caps["experimental"].(map[string]any)
	if v, declared := exp[mcp.ChannelCapability].(map[string]any); !declared || len(v) != 0 {
		t.Fatalf("capabilities %v: want experimental %q: {}", caps, mcp.ChannelCapability)
	}
	cursor, version := w.bobCursor(t)

	begin := time.Now()
	w.offerToBob(t, "t1")
	offered := time.Now()
	content, meta := w.nextChannel(t, w.bob)
	t.Logf("measured: channel notification read %v after the offer call returned (%v after it began)", time.Since(offered), time.Since(begin))
	if !strings.Contains(content, "handoff of task t1 offered to you by alice") || !strings.Contains(content, "call collab_next") {
		t.Fatalf("content %q", content)
	}
	if meta["kind"] != "handoff_offered" || meta["task_id"] != "t1" || meta["from"] != "alice" || meta["workspace_id"] != w.ws ||
		!regexp.MustCompile(`^[1-9][0-9]*$`).MatchString(meta["sequence"].(string)) {
		t.Fatalf("meta %v", meta)
	}
	if c, v := w.bobCursor(t); c != cursor || v != version {
		t.Fatalf("the channel moved bob's cursor: %+v v%d -> %+v v%d", cursor, version, c, v)
	}

	// Exactly one per event: alice's create and claim of t2 concern no
	// one, so the next notification is t2's offer, not a repeat of t1's.
	w.offerToBob(t, "t2")
	if content, meta = w.nextChannel(t, w.bob); meta["task_id"] != "t2" {
		t.Fatalf("after t1 came %q %v, want t2's offer only", content, meta)
	}
	if err := w.bob.Flush(); err != nil {
		t.Fatal(err)
	}
	if extra := w.bob.Notifications(mcp.ChannelMethod); len(extra) != 0 {
		t.Fatalf("more notifications than events: %v", extra)
	}
	if c, v := w.bobCursor(t); c != cursor || v != version {
		t.Fatalf("the channel moved bob's cursor: %+v v%d -> %+v v%d", cursor, version, c, v)
	}
}

func TestChannelGoesOnAfterARestartWithoutRepeatsOrGaps(t *testing.T) {
	w := newChannelPair(t, channelOn)
	w.offerToBob(t, "t1")
	if _, meta := w.nextChannel(t, w.bob); meta["task_id"] != "t1" {
		t.Fatalf("first notice %v", meta)
	}
	if code := w.bob.Close(); code != 0 {
		t.Fatalf("bob's server exited %d: %s", code, w.bob.Stderr())
	}
	// Committed while no server of bob's runs: the restarted one must
	// notify it, and nothing it notified before.
	w.offerToBob(t, "t2")
	bob := w.s.start(channelOn, "AGENTOOL_COLLAB_SESSION_FILE="+w.bobFile)
	if _, meta := w.nextChannel(t, bob); meta["task_id"] != "t2" {
		t.Fatalf("after the restart the first notice was %v, want t2's offer", meta)
	}
	w.offerToBob(t, "t3")
	if _, meta := w.nextChannel(t, bob); meta["task_id"] != "t3" {
		t.Fatalf("next notice %v, want t3's offer", meta)
	}
	if err := bob.Flush(); err != nil {
		t.Fatal(err)
	}
	if extra := bob.Notifications(mcp.ChannelMethod); len(extra) != 0 {
		t.Fatalf("repeated notices after the restart: %v", extra)
	}
	// Ending the session stops the channel (session_end waits for the
	// follower) and removes its mark.
	ok(t, bob, "collab_session_end", map[string]any{"reason": "done"})
	if err := bob.Flush(); err != nil {
		t.Fatal(err)
	}
	if extra := bob.Notifications(mcp.ChannelMethod); len(extra) != 0 {
		t.Fatalf("notices as the session ended: %v", extra)
	}
	if matches, _ := filepath.Glob(strings.TrimSuffix(w.bobFile, ".json") + ".channel*"); len(matches) != 0 {
		t.Fatalf("the channel mark outlived the session: %v", matches)
	}
}

func TestChannelOffLeavesTheServerAsItWas(t *testing.T) {
	w := newChannelPair(t)
	caps, _ := w.bob.Initialize["capabilities"].(map[string]any)
	if _, has := caps["experimental"]; has {
		t.Fatalf("capabilities %v declare experimental with the channel off", caps)
	}
	w.offerToBob(t, "t1")
	// collab_wait returns once bob's own process has seen the offer; a
	// channel would have had the same change to act on.
	r := ok(t, w.bob, "collab_wait", map[string]any{"workspace_id": w.ws, "timeout_ms": 20000})
	if r["reason"] != "for_you" {
		t.Fatalf("wait %v", r)
	}
	if err := w.bob.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := w.bob.Notifications(mcp.ChannelMethod); len(got) != 0 {
		t.Fatalf("channel notifications with the channel off: %v", got)
	}
	if matches, _ := filepath.Glob(strings.TrimSuffix(w.bobFile, ".json") + ".channel*"); len(matches) != 0 {
		t.Fatalf("a channel mark with the channel off: %v", matches)
	}
}

func TestChannelRefusesAnUnclearSetting(t *testing.T) {
	s := newSandbox(t)
	_, err := mcptest.Start([]string{os.Args[0]}, s.env(mcp.ChannelEnv+"=maybe"))
	if err == nil || !strings.Contains(err.Error(), mcp.ChannelEnv) {
		t.Fatalf("start with %s=maybe: %v", mcp.ChannelEnv, err)
	}
}

func TestChannelFollowerCostsLittleCPUWhileIdle(t *testing.T) {
	if testing.Short() {
		t.Skip("idle CPU measurement takes several seconds")
	}
	w := newChannelPair(t, channelOn)
	w.offerToBob(t, "t1")
	w.nextChannel(t, w.bob) // the follower is running
	share := idleShare(t, []*mcptest.Client{w.bob}, 3*time.Second)
	t.Logf("measured: a channel server following a bound session used %.2f%% of one core over 3 s idle", share)
	if share > 5 {
		t.Fatalf("an idle channel follower used %.2f%% of a core", share)
	}
}
