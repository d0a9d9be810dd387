package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
)

// The JSON-RPC edges both transports must answer alike: ids as the
// client wrote them, no answer to a cancelled request, one protocol
// version negotiation, one server version. Each test drives the real
// binary over stdio (a whole stdin) and over HTTP (`serve` on loopback).

// rawPost sends one JSON-RPC body to an HTTP server with the headers a
// client sends, and returns the status, the session header and the body.
func rawPost(t *testing.T, url, session, version, body string) (int, string, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if version != "" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", body, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), string(data)
}

// httpSession starts `serve` (no token, loopback) and initialises one MCP
// session asking for version; it returns the server, the session id and
// the initialize answer.
func httpSession(t *testing.T, s *sandbox, version string) (*httpServer, string, map[string]any) {
	t.Helper()
	h := s.serveHTTP("--no-auth-on-loopback")
	status, sid, body := rawPost(t, h.url, "", "", initializeFor(version, `"init"`))
	if status != http.StatusOK || sid == "" {
		t.Fatalf("initialize: %d %q %s", status, sid, body)
	}
	if status, _, body := rawPost(t, h.url, sid, version, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); status != http.StatusAccepted {
		t.Fatalf("initialized: %d %s", status, body)
	}
	return h, sid, decodeNumbers(t, body)
}

func initializeFor(version, id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":"` + version +
		`","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
}

// decodeNumbers decodes one JSON object keeping every number's text.
func decodeNumbers(t *testing.T, text string) map[string]any {
	t.Helper()
	var msg map[string]any
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&msg); err != nil {
		t.Fatalf("not a JSON object: %q", text)
	}
	return msg
}

// idCases are ids as a client writes them and as they must come back.
var idCases = []struct{ sent, answered string }{
	{`1.5`, `1.5`},
	{`9007199254740993`, `9007199254740993`},
	{`-9007199254740993`, `-9007199254740993`},
	{`12345678901234567890123`, `12345678901234567890123`},
	{`0.1`, `0.1`},
	{`1e400`, `1e400`},
	{`1e3`, `1000`}, // an integer value: answered in plain form, as the reference answers
	{`7.0`, `7`},
	{`-0`, `0`},
	{`42`, `42`},
	{`"s"`, `"s"`},
}

func TestRequestIDsComeBackAsTheClientWroteThemOnStdioAndHTTP(t *testing.T) {
	s := newSandbox(t)
	lines := []string{initializeLine}
	for _, c := range idCases {
		lines = append(lines, `{"jsonrpc":"2.0","id":`+c.sent+`,"method":"ping"}`)
	}
	byID, nullID, _ := exchange(t, []string{os.Args[0]}, s.env(), lines...)
	if len(nullID) != 0 {
		t.Errorf("stdio answered with id null: %v", nullID)
	}
	for _, c := range idCases {
		if r := byID[c.answered]; r == nil || r["result"] == nil {
			t.Errorf("stdio: ping with id %s: no result with id %s (answers %v)", c.sent, c.answered, keysOf(byID))
		}
	}

	h, sid, _ := httpSession(t, s, "2025-06-18")
	for _, c := range idCases {
		status, _, body := rawPost(t, h.url, sid, "2025-06-18", `{"jsonrpc":"2.0","id":`+c.sent+`,"method":"ping"}`)
		if status != http.StatusOK || !strings.HasPrefix(body, `{"jsonrpc":"2.0","id":`+c.answered+`,"result":`) {
			t.Errorf("HTTP: ping with id %s answered %d %s, want id %s", c.sent, status, body, c.answered)
		}
	}
}

func keysOf(m map[string]map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// openCancelWorkspace opens a workspace for a legacy actor through one stdio
// process and returns its id.
func openCancelWorkspace(t *testing.T, s *sandbox) string {
	t.Helper()
	repo := s.repo("cancel", map[string]string{"a.txt": "a"})
	open, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": "open", "method": "tools/call",
		"params": map[string]any{"name": "collab_workspace_open", "arguments": map[string]any{"root_path": repo, "actor": "dave"}}})
	byID, _, _ := exchange(t, []string{os.Args[0]}, s.env(), initializeLine, string(open))
	ws := str(byID[`"open"`], "result.structuredContent.workspace.id")
	if ws == "" {
		t.Fatalf("workspace_open: %v", byID[`"open"`])
	}
	return ws
}

// waitCall is a collab_wait that would wait 50 s unless cancelled.
func waitCall(ws, id string) string { return waitCallFor(ws, id, 50000) }

func waitCallFor(ws, id string, ms int) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{"name":"collab_wait","arguments":`+
		`{"workspace_id":%q,"actor":"carol","timeout_ms":%d,"scope":"workspace"}}}`, id, ws, ms)
}

func cancelFor(id string) string {
	return `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":` + id + `,"reason":"the user stopped it"}}`
}

func TestACancelledCallGetsNoAnswerOnStdio(t *testing.T) {
	s := newSandbox(t)
	ws := openCancelWorkspace(t, s)
	start := time.Now()
	// The wait is read (and so pending) before its cancellation: whatever
	// the wait is doing then, its answer must not be written.
	byID, nullID, code := exchange(t, []string{os.Args[0]}, s.env(), initializeLine,
		waitCall(ws, `"wait"`), cancelFor(`"wait"`),
		waitCall(ws, `25`), cancelFor(`25`),
		waitCallFor(ws, `"short"`, 200), `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	took := time.Since(start)
	if code != 0 || len(nullID) != 0 {
		t.Fatalf("exit %d, null-id answers %v", code, nullID)
	}
	for _, id := range []string{`"wait"`, `25`} {
		if r := byID[id]; r != nil {
			t.Errorf("cancelled call %s was answered: %v", id, r)
		}
	}
	if byID[`"after"`]["result"] == nil {
		t.Errorf("the ping after the cancellations was not answered: %v", byID)
	}
	// The same wait, not cancelled, really waits and is answered.
	if r := byID[`"short"`]; str(r, "result.structuredContent.reason") == "" || get(r, "result.isError") == true {
		t.Errorf("an uncancelled wait was not answered as a wait: %v", r)
	}
	// The waits were cancelled, not left to run out their 50 s.
	if took > 30*time.Second {
		t.Errorf("the process took %v to end: the cancelled waits ran on", took)
	}
	t.Logf("measured: two cancelled waits, then EOF: the process ended after %v", took.Round(time.Millisecond))
}

func TestACancelledCallGetsNoAnswerOverHTTP(t *testing.T) {
	s := newSandbox(t)
	ws := openCancelWorkspace(t, s)
	h, sid, _ := httpSession(t, s, "2025-06-18")
	type answer struct {
		status int
		body   string
	}
	done := make(chan answer, 1)
	go func() {
		status, _, body := rawPost(t, h.url, sid, "2025-06-18", waitCall(ws, `7.5`))
		done <- answer{status, body}
	}()
	// A cancellation that arrives before the wait is in flight names
	// nothing and is ignored: repeat it until the wait's POST ends.
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(40 * time.Second)
	for {
		select {
		case a := <-done:
			if a.status != http.StatusAccepted || a.body != "" {
				t.Fatalf("cancelled call answered %d %s, want 202 with no body", a.status, a.body)
			}
			status, _, body := rawPost(t, h.url, sid, "2025-06-18", `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
			if status != http.StatusOK || !strings.Contains(body, `"result"`) {
				t.Fatalf("ping after the cancellation: %d %s", status, body)
			}
			return
		case <-tick.C:
			if status, _, body := rawPost(t, h.url, sid, "2025-06-18", cancelFor(`7.5`)); status != http.StatusAccepted {
				t.Fatalf("cancellation: %d %s", status, body)
			}
		case <-deadline:
			t.Fatal("the cancelled wait's POST did not end")
		}
	}
}

// versionCases are the protocol versions a client may ask for and the
// version every transport answers.
var versionCases = []struct{ asked, answered string }{
	{"2024-10-07", "2024-10-07"},
	{"2024-11-05", "2024-11-05"},
	{"2025-03-26", "2025-03-26"},
	{"2025-06-18", "2025-06-18"},
	{"2025-11-25", "2025-11-25"},
	{"2026-07-28", "2025-11-25"},
	{"1999-01-01", "2025-11-25"},
}

func TestOneVersionStoryOnStdioAndHTTP(t *testing.T) {
	s := newSandbox(t)
	var lines []string
	for i, c := range versionCases {
		lines = append(lines, initializeFor(c.asked, fmt.Sprint(i)))
	}
	byID, _, _ := exchange(t, []string{os.Args[0]}, s.env(), lines...)
	stdioVersion := str(byID["0"], "result.serverInfo.version")
	if stdioVersion == "" {
		t.Fatalf("stdio reports no server version: %v", byID["0"])
	}
	for i, c := range versionCases {
		if got := str(byID[fmt.Sprint(i)], "result.protocolVersion"); got != c.answered {
			t.Errorf("stdio: %s answered %q, want %q", c.asked, got, c.answered)
		}
	}

	h := s.serveHTTP("--no-auth-on-loopback")
	for _, c := range versionCases {
		status, sid, body := rawPost(t, h.url, "", "", initializeFor(c.asked, "1"))
		msg := decodeNumbers(t, body)
		if status != http.StatusOK || str(msg, "result.protocolVersion") != c.answered {
			t.Errorf("HTTP: %s answered %d %s, want %q", c.asked, status, str(msg, "result.protocolVersion"), c.answered)
			continue
		}
		if v := str(msg, "result.serverInfo.version"); v != stdioVersion {
			t.Errorf("HTTP: serverInfo.version %q, stdio reports %q", v, stdioVersion)
		}
		// Later requests carry the negotiated version in their header.
		if status, _, body := rawPost(t, h.url, sid, c.answered, `{"jsonrpc":"2.0","id":2,"method":"ping"}`); status != http.StatusOK {
			t.Errorf("HTTP: ping in a %s session: %d %s", c.answered, status, body)
		}
	}
}

func TestHTTPRefusalsAreWhatStdioAnswers(t *testing.T) {
	s := newSandbox(t)
	h, sid, _ := httpSession(t, s, "2025-06-18")
	for _, tc := range []struct {
		name, session, body string
		status              int
		code                string
	}{
		{"a request without the session id", "", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, 400, "-32600"},
		{"a notification without the session id", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 400, "-32600"},
		{"a second initialize in the session", sid, initializeFor("2025-06-18", "2"), 200, "-32603"},
		{"initialize with bad params", "", `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":5}}`, 200, "-32603"},
		{"a method no capability covers", sid, `{"jsonrpc":"2.0","id":4,"method":"resources/list"}`, 200, "-32601"},
		{"an unknown method", sid, `{"jsonrpc":"2.0","id":5,"method":"no/such"}`, 200, "-32601"},
		{"tools/call arguments not an object", sid, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"collab_task_list","arguments":[]}}`, 200, "-32602"},
		{"not JSON", sid, `not json`, 400, "-32700"},
		{"a boolean id", sid, `{"jsonrpc":"2.0","id":true,"method":"ping"}`, 400, "-32600"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := rawPost(t, h.url, tc.session, "2025-06-18", tc.body)
			var msg struct {
				Error *struct {
					Code json.Number `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(body), &msg); err != nil || msg.Error == nil {
				t.Fatalf("%d %q: not a JSON-RPC error", status, body)
			}
			if status != tc.status || msg.Error.Code.String() != tc.code {
				t.Fatalf("answered %d code %s (%s), want %d code %s", status, msg.Error.Code, body, tc.status, tc.code)
			}
		})
	}
}

func TestToolsListIsTheSameOnStdioAndHTTP(t *testing.T) {
	s := newSandbox(t)
	byID, _, _ := exchange(t, []string{os.Args[0]}, s.env(), initializeLine, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	stdio, _ := json.Marshal(byID["1"]["result"])
	h, sid, _ := httpSession(t, s, "2025-06-18")
	status, _, body := rawPost(t, h.url, sid, "2025-06-18", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	overHTTP, _ := json.Marshal(decodeNumbers(t, body)["result"])
	if status != http.StatusOK || len(stdio) < 1000 || string(overHTTP) != string(stdio) {
		t.Fatalf("tools/list over HTTP (%d, %d bytes) differs from stdio's (%d bytes):\nHTTP  %.300s\nstdio %.300s",
			status, len(overHTTP), len(stdio), overHTTP, stdio)
	}
}
