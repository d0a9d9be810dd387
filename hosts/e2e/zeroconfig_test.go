package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/codex"
	"github.com/agenttool/collab/hosts/hostnames"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
	"github.com/agenttool/collab/hosts/plugin"
)

// zeroHome is a HOME of its own with the plugin installed and not one
// collab variable in the environment: the servers open the default
// journal under it, and nothing tells a hook where a session is.
type zeroHome struct {
	w       world
	home    string
	project string
	env     []string
}

func newZeroHome(ctx context.Context, t *testing.T, w world) *zeroHome {
	t.Helper()
	dir := t.TempDir()
	z := &zeroHome{w: w, home: filepath.Join(dir, "home"), project: filepath.Join(dir, "repo")}
	for _, d := range []string{z.home, z.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	z.env = append(baseEnv(z.home, w.bin+string(os.PathListSeparator)+os.Getenv("PATH")),
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1")
	for _, kv := range z.env {
		if strings.HasPrefix(kv, "AGENTOOL_COLLAB_") || strings.HasPrefix(kv, "XDG_") {
			t.Fatalf("the zero-configuration environment sets %s", kv)
		}
	}
	for _, c := range claude.InstallCommands(w.root) {
		run(ctx, t, cmdSpec{dir: z.project, name: filepath.Join(w.bin, "claude"), args: c[1:], env: z.env, timeout: 3 * time.Minute})
	}
	return z
}

// recordingMock is anthropicMock that also keeps every request body, so
// a test can read what each turn gave the model.
type recordingMock struct {
	inner  anthropicMock
	mu     sync.Mutex
	bodies [][]byte
}

func (m *recordingMock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if r.Method == http.MethodPost && !strings.Contains(r.URL.Path, "count_tokens") {
		m.mu.Lock()
		m.bodies = append(m.bodies, body)
		m.mu.Unlock()
	}
	m.inner.ServeHTTP(w, r)
}

// since returns whether any request after the first n carries text.
func (m *recordingMock) since(n int, text string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, b := range m.bodies[min(n, len(m.bodies)):] {
		if bytes.Contains(b, []byte(text)) {
			return true
		}
	}
	return false
}

func (m *recordingMock) count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.bodies)
}

// conversation is one headless Claude Code process taking turns on
// stream-json stdin, with its own mock model.
type conversation struct {
	t       *testing.T
	name    string
	mock    *recordingMock
	stdin   io.WriteCloser
	lines   chan string
	stderr  *bytes.Buffer
	session string // the collab session its server started
	ws      string
}

// startConversation runs `claude -p` in z's project. Its first turn has
// the model call collab_session_start through the plugin, as an agent
// following the skill does; nothing else about the session is given.
func (z *zeroHome) startConversation(ctx context.Context, t *testing.T, name string) *conversation {
	t.Helper()
	return z.startWith(ctx, t, name, z.env, nil)
}

// startWith is startConversation with the CLI's environment given and a
// step run once the CLI is up, before the first turn.
func (z *zeroHome) startWith(ctx context.Context, t *testing.T, name string, env []string, ready func(*conversation)) *conversation {
	t.Helper()
	tool := expectedTool(hostnames.Claude, "collab_session_start")
	m := &recordingMock{inner: anthropicMock{Tool: tool, Input: map[string]any{"root_path": z.project, "actor": name}}}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	cmd := exec.CommandContext(ctx, filepath.Join(z.w.bin, "claude"), "-p", "--input-format", "stream-json",
		"--output-format", "stream-json", "--verbose", "--allowedTools", tool)
	cmd.Dir = z.project
	cmd.Env = append(append([]string{}, env...), "ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=sk-ant-e2e-dummy")
	cmd.WaitDelay = 5 * time.Second
	c := &conversation{t: t, name: name, mock: m, lines: make(chan string, 256), stderr: &bytes.Buffer{}}
	c.stdin, _ = cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.stdin.Close(); cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	if ready != nil {
		ready(c)
	}
	c.turn(ctx, "Start a collab session for this repository.")
	_, results, _ := m.inner.snapshot()
	if len(results) == 0 {
		t.Fatalf("%s: collab_session_start returned nothing to the model; stderr:\n%s", name, c.stderr)
	}
	c.session, c.ws = startedSession(t, results[0])
	return c
}

// turn sends one user message and waits for the turn's result line.
func (c *conversation) turn(ctx context.Context, prompt string) {
	c.t.Helper()
	msg, _ := json.Marshal(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": prompt}})
	if _, err := c.stdin.Write(append(msg, '\n')); err != nil {
		c.t.Fatalf("%s: %v", c.name, err)
	}
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("%s: claude exited during a turn; stderr:\n%s", c.name, c.stderr)
			}
			var ev struct {
				Type string `json:"type"`
			}
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "result" {
				return
			}
		case <-ctx.Done():
			c.t.Fatalf("%s: the turn never ended", c.name)
		}
	}
}

// startedSession reads the session and workspace ids from
// collab_session_start's result as the model received it.
func startedSession(t *testing.T, result string) (string, string) {
	t.Helper()
	i := strings.Index(result, "{")
	if strings.HasPrefix(result, "ERROR:") || i < 0 {
		t.Fatalf("collab_session_start failed: %q", result)
	}
	var p struct {
		Session   struct{ ID string }
		Workspace struct{ ID string }
	}
	if err := json.NewDecoder(strings.NewReader(result[i:])).Decode(&p); err != nil || p.Session.ID == "" {
		t.Fatalf("no session in %q (%v)", result, err)
	}
	return p.Session.ID, p.Workspace.ID
}

// claudeZeroConfigFlow is the "done when" for Claude Code: the
// plugin installed in a HOME of its own, no collab variable set, two
// simultaneous conversations in one repository each start a session
// through the model; another process posts one report to A and two to B;
// each conversation's next turn carries, through the UserPromptSubmit
// hook, the count of its own reports only.
func claudeZeroConfigFlow(ctx context.Context, t *testing.T, w world) {
	ctx, cancel := context.WithTimeout(ctx, 6*time.Minute)
	defer cancel()
	z := newZeroHome(ctx, t, w)
	a := z.startConversation(ctx, t, "agent-a")
	b := z.startConversation(ctx, t, "agent-b")
	if a.session == b.session {
		t.Fatal("the two conversations share one collab session")
	}

	sender, err := mcptest.Start([]string{filepath.Join(w.root, plugin.Launcher)}, z.env)
	if err != nil {
		t.Fatalf("start the sender's server: %v", err)
	}
	defer sender.Close()
	wakeCall(t, sender, "collab_session_start", map[string]any{"root_path": z.project, "actor": "sender"})
	post := func(to *conversation, n int) {
		for i := 0; i < n; i++ {
			wakeCall(t, sender, "collab_report_append", map[string]any{"workspace_id": to.ws, "idempotency_key": to.name + string(rune('0'+i)),
				"kind": "observation", "body": "note for " + to.name, "to_session_id": to.session})
		}
	}
	post(a, 1)
	post(b, 2)

	for _, c := range []struct {
		conv       *conversation
		want, miss string
	}{
		{a, "1 report addressed to you", "2 reports addressed to you"},
		{b, "2 reports addressed to you", "1 report addressed to you"},
	} {
		before := c.conv.mock.count()
		c.conv.turn(ctx, "Anything new?")
		if !c.conv.mock.since(before, c.want) {
			t.Errorf("%s: no request of its next turn carried %q; stderr:\n%s", c.conv.name, c.want, c.conv.stderr)
		}
		if c.conv.mock.since(0, c.miss) {
			t.Errorf("%s: a request carried the other conversation's notice %q", c.conv.name, c.miss)
		}
		file := filepath.Join(z.home, ".local", "share", "agenttool", "collab-sessions", c.conv.session+".json")
		cred, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: the session's credential file: %v", c.conv.name, err)
		}
		var token struct {
			Token string `json:"session_token"`
		}
		json.Unmarshal(cred, &token)
		for _, secret := range []string{file, token.Token} {
			if secret == "" || c.conv.mock.since(0, secret) {
				t.Errorf("%s: a request to the model names the credential file or its token", c.conv.name)
			}
		}
	}
}

// claudeZeroConfigChannelFlow shows the channel with nothing set: the
// conversation's own server, which started the session through the model,
// pushes a report addressed to it, and Claude Code starts a turn by itself
// with the notice inside a <channel> message. The channel needs Claude
// Code's two server-side flags (forced in its feature cache, as in
// claudeChannelFlow, which is read only with telemetry on, so all other
// traffic goes to a dead loopback proxy) and a channel_enable request.
func claudeZeroConfigChannelFlow(ctx context.Context, t *testing.T, w world) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	z := newZeroHome(ctx, t, w)
	defer forceChannelFlags(t, z.home)()
	var env []string
	for _, kv := range z.env {
		if !strings.HasPrefix(kv, "DISABLE_TELEMETRY=") && !strings.HasPrefix(kv, "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=") {
			env = append(env, kv)
		}
	}
	env = append(env, "HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "NO_PROXY=127.0.0.1,localhost")
	a := z.startWith(ctx, t, "agent-a", env, func(c *conversation) {
		enableChannel(ctx, t, c.stdin, c.lines, "plugin:"+plugin.Name+":"+plugin.Server)
	})
	go func() { // keep reading so the CLI never blocks on its output
		for range a.lines {
		}
	}()
	sender, err := mcptest.Start([]string{filepath.Join(w.root, plugin.Launcher)}, z.env)
	if err != nil {
		t.Fatalf("start the sender's server: %v", err)
	}
	defer sender.Close()
	wakeCall(t, sender, "collab_session_start", map[string]any{"root_path": z.project, "actor": "sender"})
	before := a.mock.count()
	wakeCall(t, sender, "collab_report_append", map[string]any{"workspace_id": a.ws, "idempotency_key": "channel-1",
		"kind": "observation", "body": "channel note for agent-a", "to_session_id": a.session})
	posted := time.Now()
	for !a.mock.since(before, `kind=\"report_addressed\"`) {
		select {
		case <-ctx.Done():
			t.Fatalf("no request to the model carried the channel message; stderr:\n%s", a.stderr)
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Logf("measured: the channel message reached the model %v after the report was committed", time.Since(posted).Round(time.Millisecond))
	if !a.mock.since(before, channelNeedle) || !a.mock.since(before, "channel note for agent-a") {
		t.Errorf("the channel request lacks the host's channel tag or the report text")
	}
}

// channelNeedle is channelTag as it appears inside a JSON request body.
var channelNeedle = strings.ReplaceAll(channelTag, `"`, `\"`)

// codexTurnMock is responsesMock that keeps every request body and, the
// first time a tool output comes back (the session the model started),
// calls started with it before answering, so a report can be posted to
// that session while the run is still going.
type codexTurnMock struct {
	inner   responsesMock
	started func(output string)
	once    sync.Once
	bodies  recordingMock // only its bodies are used
}

func (m *codexTurnMock) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if r.Method == http.MethodPost {
		m.bodies.mu.Lock()
		m.bodies.bodies = append(m.bodies.bodies, body)
		m.bodies.mu.Unlock()
		var req responsesRequest
		if json.Unmarshal(body, &req) == nil {
			for _, in := range req.Input {
				if in.Type == "function_call_output" {
					m.once.Do(func() { m.started(outputText(in.Output)) })
				}
			}
		}
	}
	m.inner.ServeHTTP(w, r)
}

// codexZeroConfigFlow is the "done when" for Codex: the plugin and the
// rendered hooks installed in a HOME of their own with no collab variable,
// two simultaneous `codex exec` runs in one repository each start a
// session through the model; while each run is under way another process
// posts one report to A and two to B; Codex's Stop hook then makes each
// agent go on once, and that continuation carries only its own count.
func codexZeroConfigFlow(ctx context.Context, t *testing.T, w world) {
	ctx, cancel := context.WithTimeout(ctx, 6*time.Minute)
	defer cancel()
	dir := t.TempDir()
	home, project := filepath.Join(dir, "home"), filepath.Join(dir, "repo")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	env := baseEnv(home, w.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	cli := filepath.Join(w.bin, "codex")
	cfg := filepath.Join(home, ".codex", "config.toml")
	writeFile(t, cfg, "model_provider = \"e2e\"\nmodel = \"gpt-5\"\n\n"+
		"[model_providers.e2e]\nname = \"e2e mock\"\nbase_url = \"http://127.0.0.1:9/v1\"\nwire_api = \"responses\"\n")
	for _, c := range codex.InstallCommands(w.root) {
		run(ctx, t, cmdSpec{dir: project, name: cli, args: c[1:], env: env, timeout: 3 * time.Minute})
	}
	appendFile(t, cfg, "\n[plugins.\""+codex.PluginID+"\".mcp_servers."+plugin.Server+"]\ndefault_tools_approval_mode = \"approve\"\n")
	hooks, err := json.Marshal(codex.WakeHooks(`"` + filepath.Join(w.root, plugin.Launcher) + `"`))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, ".codex", "hooks.json"), string(hooks))

	sender, err := mcptest.Start([]string{filepath.Join(w.root, plugin.Launcher)}, env)
	if err != nil {
		t.Fatalf("start the sender's server: %v", err)
	}
	defer sender.Close()
	wakeCall(t, sender, "collab_session_start", map[string]any{"root_path": project, "actor": "sender"})
	var sendMu sync.Mutex
	runs := []struct {
		name       string
		reports    int
		want, miss string
		mock       *codexTurnMock
		out        string
	}{
		{name: "agent-a", reports: 1, want: "1 report addressed to you", miss: "2 reports addressed to you"},
		{name: "agent-b", reports: 2, want: "2 reports addressed to you", miss: "1 report addressed to you"},
	}
	var wg sync.WaitGroup
	for i := range runs {
		r := &runs[i]
		r.mock = &codexTurnMock{inner: responsesMock{Namespace: hostnames.CodexNamespace(plugin.Server), Tool: "collab_session_start",
			Arguments: map[string]any{"root_path": project, "actor": r.name}}}
		r.mock.started = func(output string) {
			session, ws := startedSession(t, output)
			sendMu.Lock()
			defer sendMu.Unlock()
			for n := 0; n < r.reports; n++ {
				res, err := sender.Call("collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": fmt.Sprint(r.name, n),
					"kind": "observation", "body": "note for " + r.name, "to_session_id": session})
				if err != nil || res.IsError {
					t.Errorf("%s: post a report: %v %s", r.name, err, res.Raw)
				}
			}
		}
		srv := httptest.NewServer(r.mock)
		t.Cleanup(srv.Close)
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, errOut, err := tryRun(ctx, cmdSpec{dir: project, name: cli, env: env, timeout: 4 * time.Minute,
				args: []string{"exec", "--dangerously-bypass-hook-trust", "--skip-git-repo-check",
					"-c", `model_providers.e2e.base_url="` + srv.URL + `/v1"`, "Start a collab session for this repository."}})
			r.out = out + errOut
			if err != nil {
				t.Errorf("%s: codex exec: %v\n%s", r.name, err, r.out)
			}
		}()
	}
	wg.Wait()
	for _, r := range runs {
		if _, results, _ := r.mock.inner.snapshot(); len(results) == 0 {
			t.Errorf("%s: the model never got collab_session_start's result; codex printed:\n%s", r.name, r.out)
			continue
		}
		if !r.mock.bodies.since(0, r.want) {
			t.Errorf("%s: no request carried %q; codex printed:\n%s", r.name, r.want, r.out)
		}
		if r.mock.bodies.since(0, r.miss) {
			t.Errorf("%s: a request carried the other run's notice %q", r.name, r.miss)
		}
	}
}
