package mcp

import (
	"context"
	"database/sql"
	"encoding/json"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// FuzzToolArguments sends arbitrary argument bytes to a tool through the
// MCP layer (decoding, schema validation, handler) of a process bound to a
// session, or of an unbound one when the tool name is prefixed "legacy:".
// Seeds (testdata/fuzz/FuzzToolArguments) hold one plausible call per tool
// with $PLACEHOLDERS for the ids of a prepared workspace. Invariants: no
// panic and no Go error; a rejection is text only and names an argument; a
// refusal carries a snake_case code and a message, and internal_error only
// for the legacy write guard; a success is a JSON object mirrored by its
// text; and no rejected or refused call changes the database.
func FuzzToolArguments(f *testing.F) {
	w := newFuzzWorld(f)
	f.Fuzz(func(t *testing.T, name string, raw []byte) {
		p, tool := w.route(name)
		args := w.subst.Replace(string(raw))
		before := w.fingerprint(t)
		res, err := p.call(context.Background(), tool, []byte(args))
		if err != nil || res == nil {
			t.Fatalf("%s(%s): no result: %v", tool.Name, args, err)
		}
		if res.IsError {
			checkRefusal(t, tool.Name, res)
			if after := w.fingerprint(t); after != before {
				t.Fatalf("%s(%s) was refused but changed the database:\n%s\n%s", tool.Name, args, before, after)
			}
			return
		}
		checkSuccess(t, tool.Name, res)
	})
}

var refusalCodePattern = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// checkRefusal checks the shape of an error result.
func checkRefusal(t *testing.T, tool string, res *sdk.CallToolResult) {
	t.Helper()
	text := res.Content[0].(*sdk.TextContent).Text
	if res.StructuredContent == nil {
		if !strings.Contains(text, tool) || len(text) < len(tool)+10 {
			t.Fatalf("%s: an input rejection should name the tool and the argument: %q", tool, text)
		}
		return
	}
	var body struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	if err := json.Unmarshal(res.StructuredContent.(json.RawMessage), &body); err != nil {
		t.Fatalf("%s: refusal is not a JSON object: %v", tool, err)
	}
	if !refusalCodePattern.MatchString(body.Error) || body.Message == "" {
		t.Fatalf("%s: refusal without a clear code and message: %s", tool, res.StructuredContent)
	}
	if body.Error == "internal_error" && body.Message != guardAbortMessage {
		t.Fatalf("%s: internal error: %s", tool, body.Message)
	}
}

// checkSuccess checks that a result is an object its text mirrors.
func checkSuccess(t *testing.T, tool string, res *sdk.CallToolResult) {
	t.Helper()
	raw, ok := res.StructuredContent.(json.RawMessage)
	var structured, mirrored map[string]any
	if !ok || json.Unmarshal(raw, &structured) != nil {
		t.Fatalf("%s: success without a JSON object: %v", tool, res.StructuredContent)
	}
	if err := json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), &mirrored); err != nil || len(mirrored) != len(structured) {
		t.Fatalf("%s: text does not mirror the structured result: %v", tool, err)
	}
}

// fuzzWorld is a prepared database: a workspace with a bound session, a
// peer session, an open task, a task the bound session holds, a report and
// a presence hint. Placeholders in fuzz inputs name them.
type fuzzWorld struct {
	st            *store.Store
	bound, legacy *Process
	tools         map[string]Tool
	list          []Tool
	subst         *strings.Replacer
	inspect       *sql.DB
}

func newFuzzWorld(f *testing.F) *fuzzWorld {
	if _, err := exec.LookPath("git"); err != nil {
		f.Skip("git is needed to prepare a workspace")
	}
	dir := f.TempDir()
	repo := fuzzRepo(f, filepath.Join(dir, "repo"))
	dbPath := filepath.Join(dir, "state", "collab.sqlite")
	st, err := backend.Open(context.Background(), backend.Options{Path: dbPath})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	w := &fuzzWorld{st: st, bound: NewProcess(ProcessConfig{Store: st}), legacy: NewProcess(ProcessConfig{Store: st}),
		tools: map[string]Tool{}, list: Tools()}
	for _, t := range w.list {
		w.tools[t.Name] = t
	}
	w.subst = strings.NewReplacer(w.prepare(f, repo)...)
	if w.inspect, err = sql.Open("sqlite", "file:"+dbPath+"?mode=ro"); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { w.inspect.Close() })
	return w
}

// prepare creates the world's rows and returns placeholder/value pairs.
func (w *fuzzWorld) prepare(f *testing.F, repo string) []string {
	started := w.must(f, w.bound, "collab_session_start", map[string]any{"root_path": repo, "actor": "fuzz"})
	peer := w.must(f, NewProcess(ProcessConfig{Store: w.st}), "collab_session_start", map[string]any{"root_path": repo, "actor": "peer"})
	ws := fuzzField(started, "workspace", "id")
	for _, id := range []string{"t-open", "t-claimed"} {
		w.must(f, w.bound, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": "seed-" + id,
			"task_id": id, "title": "seed task", "work_mode": "coordination", "completion_policy": "accepted"})
	}
	claimed := w.must(f, w.bound, "collab_task_claim", map[string]any{"workspace_id": ws, "idempotency_key": "seed-claim",
		"task_id": "t-claimed", "expected_version": 1})
	report := w.must(f, w.bound, "collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": "seed-report",
		"kind": "observation", "body": "seed"})
	presence := w.must(f, w.bound, "collab_session_join", map[string]any{"workspace_id": ws, "client_instance_id": "fuzz-1",
		"actor_label": "fuzz", "runtime_kind": "codex"})
	status := w.must(f, w.bound, "collab_workspace_status", map[string]any{"workspace_id": ws})
	return []string{"$WS", ws, "$EPOCH", fuzzField(status, "workspace", "epoch_id"), "$HEAD", fuzzField(status, "workspace", "event_head_hash"),
		"$SELF", fuzzField(started, "session", "id"), "$PEER", fuzzField(peer, "session", "id"), "$LEASE", fuzzField(claimed, "task", "lease_id"),
		"$REPORT", fuzzField(report, "report", "id"), "$PRESENCE", fuzzField(presence, "session", "id"), "$REPO", repo}
}

// must runs a tool that has to succeed during preparation.
func (w *fuzzWorld) must(f *testing.F, p *Process, tool string, args map[string]any) map[string]any {
	raw, _ := json.Marshal(args)
	res, err := p.call(context.Background(), w.tools[tool], raw)
	if err != nil || res.IsError {
		f.Fatalf("prepare %s: %v %v", tool, err, res.Content[0].(*sdk.TextContent).Text)
	}
	var out map[string]any
	json.Unmarshal(res.StructuredContent.(json.RawMessage), &out)
	return out
}

// route picks the process and tool for a fuzzed name. Session start and
// end get a fresh unbound process, so that no input can change the
// binding the other calls rely on. Unknown names still pick a tool.
func (w *fuzzWorld) route(name string) (*Process, Tool) {
	p := w.bound
	if rest, ok := strings.CutPrefix(name, "legacy:"); ok {
		p, name = w.legacy, rest
	}
	tool, ok := w.tools[name]
	if !ok {
		tool = w.list[crc32.ChecksumIEEE([]byte(name))%uint32(len(w.list))]
	}
	if tool.Name == "collab_session_start" || tool.Name == "collab_session_end" {
		p = NewProcess(ProcessConfig{Store: w.st})
	}
	return p, tool
}

// fingerprint summarises every table a tool can write.
func (w *fuzzWorld) fingerprint(t *testing.T) string {
	t.Helper()
	var out string
	err := w.inspect.QueryRow(`SELECT printf('%d %d %d %d %d %d %d %d %d %d %d %d %d',
 (SELECT count(*) FROM events), (SELECT count(*) FROM mutations), (SELECT count(*) FROM tasks),
 (SELECT total(version) FROM tasks), (SELECT count(*) FROM sessions), (SELECT total(version) FROM sessions),
 (SELECT count(*) FROM coordination_sessions), (SELECT total(generation) + total(cursor_version) FROM coordination_sessions),
 (SELECT count(*) FROM reports), (SELECT count(*) FROM handoffs), (SELECT count(*) FROM artifacts),
 (SELECT count(*) FROM decisions), (SELECT count(*) FROM worktrees))`).Scan(&out)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fuzzField reads a string along keys of a decoded result.
func fuzzField(v map[string]any, keys ...string) string {
	for _, k := range keys[:len(keys)-1] {
		v, _ = v[k].(map[string]any)
	}
	s, _ := v[keys[len(keys)-1]].(string)
	return s
}

// fuzzRepo creates a repository with one commit.
func fuzzRepo(f *testing.F, dir string) string {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		f.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"},
		{"-c", "user.name=fuzz", "-c", "user.email=fuzz@example.com", "commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			f.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil {
		f.Fatal(err)
	}
	return resolved
}
