package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/plugin"
)

// channelTag is the start of the message Claude Code gives the model for
// a notifications/claude/channel from the plugin's server.
var channelTag = `<channel source="plugin:` + plugin.Name + `:` + plugin.Server + `"`

// channelMock records the first model request that carries a channel
// message, then answers like anthropicMock.
type channelMock struct {
	inner anthropicMock
	once  sync.Once
	got   chan string // the channel message, as the model sees it
}

func (m *channelMock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var req anthropicRequest
	if json.Unmarshal(body, &req) == nil {
		for _, msg := range req.Messages {
			for _, text := range messageTexts(msg.Content) {
				if strings.Contains(text, channelTag) {
					m.once.Do(func() { m.got <- text })
				}
			}
		}
	}
	m.inner.ServeHTTP(w, r)
}

// messageTexts returns a message's text, whether content is a string or
// a list of blocks.
func messageTexts(raw json.RawMessage) []string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}
	}
	var blocks []struct {
		Type, Text string
	}
	json.Unmarshal(raw, &blocks)
	var out []string
	for _, b := range blocks {
		if b.Type == "text" {
			out = append(out, b.Text)
		}
	}
	return out
}

// claudeChannelFlow shows the channel reaching the model through the real
// Claude Code CLI. Claude Code registers a channel only when its
// tengu_harbor flag is on and the plugin is on the tengu_harbor_ledger
// allowlist (both server-side; set here in the CLI's feature cache, which
// it reads only when telemetry is not disabled, so every other outbound
// connection is sent to a dead loopback proxy instead), and when the
// session asks for it: interactively with --channels, headless (what runs
// here) with a channel_enable control request on stream-json input. Alice
// then offers bob a handoff; the notice must arrive in a request the mock
// model receives, as a <channel> message with one source attribute and
// the server's meta, and bob's cursor must not move.
func claudeChannelFlow(ctx context.Context, t *testing.T, w world) {
	restore := forceChannelFlags(t, w.home)
	defer restore()
	s := startWakeSessions(t, w, "-channel")
	seq, version := bobCursor(t, w, s.bobID)
	mock := &channelMock{got: make(chan string, 1)}
	srv := httptest.NewServer(mock)
	defer srv.Close()

	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(w.bin, "claude"), "-p", "--input-format", "stream-json",
		"--output-format", "stream-json", "--verbose")
	cmd.Dir = w.project
	cmd.Env = w.env("DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1", "ANTHROPIC_BASE_URL="+srv.URL,
		"ANTHROPIC_API_KEY=sk-ant-e2e-dummy", "AGENTOOL_COLLAB_SESSION_FILE="+s.file,
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1,localhost")
	cmd.WaitDelay = 5 * time.Second
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	enableChannel(ctx, t, stdin, lines, "plugin:"+plugin.Name+":"+plugin.Server)

	s.offer(t, "channel-task")
	offered := time.Now()
	go func() { // keep reading so the CLI never blocks on its output
		for range lines {
		}
	}()
	var msg string
	select {
	case msg = <-mock.got:
		t.Logf("measured: the channel message reached the model %v after the offer call returned", time.Since(offered))
	case <-ctx.Done():
		t.Fatalf("no request to the model carried the channel message; stderr:\n%s", stderr.String())
	}
	tag := msg[:strings.Index(msg, ">")+1]
	for _, want := range []string{`kind="handoff_offered"`, `task_id="channel-task"`, `from="alice-channel"`} {
		if !strings.Contains(tag, want) {
			t.Errorf("channel tag %s lacks %s", tag, want)
		}
	}
	if n := len(regexp.MustCompile(`\bsource=`).FindAllString(tag, -1)); n != 1 {
		t.Errorf("channel tag %s has %d source attributes, want the host's one", tag, n)
	}
	if !strings.Contains(msg, "handoff of task channel-task offered to you") || !strings.Contains(msg, "call collab_next") {
		t.Errorf("channel message %q", msg)
	}
	if strings.Contains(msg, s.file) {
		t.Error("the channel message names the credential file")
	}
	if sq, v := bobCursor(t, w, s.bobID); sq != seq || v != version {
		t.Fatalf("the channel moved bob's cursor: %d v%d -> %d v%d", seq, version, sq, v)
	}
}

// enableChannel asks the headless CLI to register the server as a channel,
// again while the server is still connecting, and fails on any other
// refusal (the flags above no longer work, say).
func enableChannel(ctx context.Context, t *testing.T, stdin io.Writer, lines <-chan string, server string) {
	t.Helper()
	for i := 0; ; i++ {
		id := "channel-" + strconv.Itoa(i)
		req, _ := json.Marshal(map[string]any{"type": "control_request", "request_id": id,
			"request": map[string]any{"subtype": "channel_enable", "serverName": server}})
		if _, err := stdin.Write(append(req, '\n')); err != nil {
			t.Fatal(err)
		}
		answer := controlResponse(ctx, t, lines, id)
		switch {
		case answer.Subtype == "success":
			return
		case strings.Contains(answer.Error, "not connected"):
			select { // the server is still starting: ask again shortly
			case <-time.After(500 * time.Millisecond):
			case <-ctx.Done():
				t.Fatal("the server never connected")
			}
		default:
			t.Fatalf("Claude Code refused to enable the channel: %s", answer.Error)
		}
	}
}

type controlAnswer struct {
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	Error     string `json:"error"`
}

func controlResponse(ctx context.Context, t *testing.T, lines <-chan string, id string) controlAnswer {
	t.Helper()
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatal("claude exited before answering the channel request")
			}
			var msg struct {
				Type     string        `json:"type"`
				Response controlAnswer `json:"response"`
			}
			if json.Unmarshal([]byte(line), &msg) == nil && msg.Type == "control_response" && msg.Response.RequestID == id {
				return msg.Response
			}
		case <-ctx.Done():
			t.Fatal("no answer to the channel request")
		}
	}
}

// forceChannelFlags turns on, in the CLI's cached server-side features,
// the two flags channels need, and returns a function that puts
// ~/.claude.json back as it was.
func forceChannelFlags(t *testing.T, home string) func() {
	t.Helper()
	path := filepath.Join(home, ".claude.json")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(before, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["cachedGrowthBookFeatures"] = map[string]any{"tengu_harbor": true,
		"tengu_harbor_ledger": []map[string]string{{"plugin": plugin.Name, "marketplace": plugin.Marketplace}}}
	data, _ := json.Marshal(cfg)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return func() { os.WriteFile(path, before, 0o600) }
}
