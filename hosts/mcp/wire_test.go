package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/mcp/stdio"
)

// sdkEncoding is what the SDK sends for a result: encoding/json without
// HTML escaping, as its JSON-RPC layer marshals every response's result.
func sdkEncoding(t testing.TB, v any) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encode %T: %v", v, err)
	}
	return string(bytes.TrimRight(b.Bytes(), "\n"))
}

// awkward holds every character class the two encodings escape: quotes
// and backslashes, each control character, HTML's <, > and &, U+2028 and
// U+2029 (raw), DEL, multi-byte text and a byte of invalid UTF-8.
var awkward = func() string {
	var b bytes.Buffer
	b.WriteString(`"quoted" \back\ <tag> & amp; ` + "\u2028\u2029 \x7f é 日本 🚀 \xff end ")
	for c := byte(0); c < 0x20; c++ {
		b.WriteByte(c)
	}
	return b.String()
}()

// TestEncodedResultsAreTheSDKsBytes encodes the results this server
// builds both ways and requires the same bytes: success and failure, text
// and structured content full of characters that are escaped, empty text,
// a rejection without structured content, and a large real answer.
func TestEncodedResultsAreTheSDKsBytes(t *testing.T) {
	large, err := os.ReadFile(filepath.Join("testdata", "status-30-claims.json"))
	if err != nil {
		t.Fatal(err)
	}
	structured, err := json.Marshal(map[string]any{"body": awkward, "n": []any{1, 2.5, nil, true}, "o": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		result *sdk.CallToolResult
	}{
		{"a large real answer", toolResult(large, false)},
		{"awkward characters in both blocks", toolResult(structured, false)},
		{"awkward characters in an error", toolResult(structured, true)},
		{"a refusal", failure(fmt.Errorf("boom %s", awkward), keepText)},
		{"a rejection: text only", rejection("collab_next: " + awkward)},
		{"empty text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{}}}},
		{"raw text beside structured content", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: awkward}},
			StructuredContent: json.RawMessage(`{"a":"<b>\u2028","c":[]}`), IsError: true}},
		{"scalar structured content", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "1"}},
			StructuredContent: json.RawMessage(`1`)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, _, plain := plainResult(c.result); !plain {
				t.Fatal("the result was left to json.Marshal")
			}
			got, err := encodeResult(c.result)
			if err != nil {
				t.Fatal(err)
			}
			if want := sdkEncoding(t, c.result); string(got) != want {
				t.Fatalf("encoded differently:\n got  %.400s\n want %.400s", got, want)
			}
		})
	}
}

// TestResultsTheServerDoesNotBuildAreLeftToJSONMarshal: anything but one
// plain text block with raw compact structured content, and no metadata,
// is encoded by json.Marshal, which gives the SDK's bytes.
func TestResultsTheServerDoesNotBuildAreLeftToJSONMarshal(t *testing.T) {
	text := func() []sdk.Content { return []sdk.Content{&sdk.TextContent{Text: "x"}} }
	cases := []struct {
		name   string
		result *sdk.CallToolResult
	}{
		{"no content", &sdk.CallToolResult{}},
		{"two blocks", &sdk.CallToolResult{Content: append(text(), &sdk.TextContent{Text: "y"})}},
		{"an image", &sdk.CallToolResult{Content: []sdk.Content{&sdk.ImageContent{Data: []byte("x"), MIMEType: "image/png"}}}},
		{"annotated text", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "x", Annotations: &sdk.Annotations{Priority: 1}}}}},
		{"text with metadata", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "x", Meta: sdk.Meta{"k": "v"}}}}},
		{"result metadata", &sdk.CallToolResult{Meta: sdk.Meta{"k": "v"}, Content: text()}},
		{"structured content as a map", &sdk.CallToolResult{Content: text(), StructuredContent: map[string]any{"a": 1}}},
		{"structured content with spaces", &sdk.CallToolResult{Content: text(), StructuredContent: json.RawMessage(`{ "a": 1 }`)}},
		{"a nil raw message", &sdk.CallToolResult{Content: text(), StructuredContent: json.RawMessage(nil)}},
		{"fields after the content", &sdk.CallToolResult{Content: text(),
			StructuredContent: json.RawMessage(`{}`), IsError: true, RequestState: "state <&> \u2028"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, _, plain := plainResult(c.result); plain {
				t.Fatalf("encoded %s itself", sdkEncoding(t, c.result))
			}
			got, err := encodeResult(c.result)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := json.Compact(&want, []byte(sdkEncoding(t, c.result))); err != nil {
				t.Fatal(err)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, got); err != nil {
				t.Fatal(err)
			}
			if compact.String() != want.String() {
				t.Fatalf("left to json.Marshal, but encoded differently:\n got  %s\n want %s", got, want.String())
			}
		})
	}
}

// serving names the two servers a stdio client may be answered by: this
// server's own loop (Dispatcher.Serve), and the SDK's server with every
// tool in its registry (registryServer), the yardstick.
type serving int

const (
	byLoop serving = iota
	bySDK
)

// TestToolCallLinesAreTheSDKs runs the same calls against this server's
// loop and against the SDK's server with every tool in its registry, over
// the stdio transport, and requires identical response lines, for clients
// of an older and of the newest protocol this server speaks: answers,
// refusals, rejections, unknown tools, a waiting tool, calls with a plain
// _meta and with an extra key. (A _meta naming a per-request protocol
// version, SEP-2575, is not compared: the SDK's server refuses it for a
// protocol this server does not speak, and this server reads no _meta.)
func TestToolCallLinesAreTheSDKs(t *testing.T) {
	ctx := context.Background()
	st := fileStore(t)
	setup := NewProcess(ProcessConfig{Store: st})
	started, err := callTool(ctx, setup, "collab_session_start", map[string]any{"root_path": t.TempDir(), "actor": "writer"})
	if err != nil {
		t.Fatal(err)
	}
	ws := started["workspace"].(map[string]any)["id"].(string)
	// The journal refuses NUL in a body; every other awkward character goes in.
	if _, err := callTool(ctx, setup, "collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": "k",
		"kind": "observation", "body": strings.ReplaceAll(awkward, "\x00", ""), "confidence": "high", "limits": "<none> & \u2028"}); err != nil {
		t.Fatal(err)
	}
	calls := []string{
		`{"name":"collab_events_since","arguments":{"workspace_id":"` + ws + `","after_sequence":0}}`,
		`{"name":"collab_journal_verify","arguments":{"workspace_id":"` + ws + `"}}`,
		`{"name":"collab_report_list","arguments":{"workspace_id":"` + ws + `"}}`,
		`{"name":"collab_next","arguments":{"workspace_id":"` + ws + `"}}`,
		`{"name":"collab_next","arguments":{"workspace_id":7}}`,
		`{"name":"collab_journal_verify"}`,
		`{"name":"collab_no_such_tool","arguments":{}}`,
		`{"name":"collab_wait","arguments":{"workspace_id":"` + ws + `","timeout_ms":1}}`,
		`{"name":"collab_events_since","arguments":{"workspace_id":"` + ws + `","after_sequence":1},"_meta":{"progressToken":3}}`,
		`{"name":"collab_events_since","arguments":{"workspace_id":"` + ws + `"},"extra":1}`,
	}
	for _, version := range []string{"2025-06-18", ProtocolVersions[0]} {
		t.Run(version, func(t *testing.T) {
			servers := []*lineServer{startLineServer(t, st, bySDK, version), startLineServer(t, st, byLoop, version)}
			for i, params := range calls {
				line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+10, params)
				want := servers[0].ask(t, line)
				for _, s := range servers[1:] {
					if got := s.ask(t, line); got != want {
						t.Fatalf("call %s:\n got  %.600s\n want %.600s", params, got, want)
					}
				}
			}
			// Where the reference is stricter than the SDK: arguments that
			// are present must be an object.
			line := `{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"collab_journal_verify","arguments":null}}`
			want := `{"jsonrpc":"2.0","id":99,"error":{"code":-32602,"message":"Invalid tools/call request: arguments must be an object"}}` + "\n"
			if got := servers[1].ask(t, line); got != want {
				t.Fatalf("null arguments:\n got  %s\n want %s", got, want)
			}
		})
	}
}

// TestToolListLinesListTheCatalogueInItsOrder asks the same listings,
// each twice, for every kind of profile, and requires each answer to be
// the listing rendered once: {"tools":[...]} alone, the profile's tools
// in catalogue order (Tools), whatever the params (absent, null, empty, an
// empty or unknown cursor, a plain _meta, the SDK's own, an array), each
// tool's bytes as the SDK's registry lists it.
func TestToolListLinesListTheCatalogueInItsOrder(t *testing.T) {
	st := fileStore(t)
	asks := []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":null}`,
		`{"jsonrpc":"2.0","id":"four","method":"tools/list","params":{}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"cursor":""}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{"cursor":"elsewhere"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"_meta":{"progressToken":1}}}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
		`{"jsonrpc":"2.0","id":9,"method":"tools/list","params":[]}`,
	}
	for _, profile := range []string{"", "core", "collab_search,collab_next,collab_session_start"} {
		t.Run("profile="+profile, func(t *testing.T) {
			tools, err := SelectTools(profile)
			if err != nil {
				t.Fatal(err)
			}
			registry := startProfileServer(t, st, bySDK, "2025-06-18", profile)
			sdkTools := map[string]string{}
			for _, raw := range listedTools(t, registry.ask(t, asks[0]), false) {
				var named struct{ Name string }
				json.Unmarshal(raw, &named)
				sdkTools[named.Name] = string(raw)
			}
			loop := startProfileServer(t, st, byLoop, "2025-06-18", profile)
			for round := range 2 {
				for _, line := range asks {
					listed := listedTools(t, loop.ask(t, line), true)
					if len(listed) != len(tools) {
						t.Fatalf("round %d, %s: %d tools listed, want %d", round, line, len(listed), len(tools))
					}
					for i, raw := range listed {
						if want := sdkTools[tools[i].Name]; string(raw) != want {
							t.Fatalf("round %d, %s: tool %d is\n %.300s\nwant\n %.300s", round, line, i, raw, want)
						}
					}
				}
			}
		})
	}
}

// listedTools returns the tools of a tools/list answer line; alone
// requires the result to hold nothing else (the SDK adds cache hints).
func listedTools(t *testing.T, line string, alone bool) []json.RawMessage {
	t.Helper()
	var msg struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &msg); err != nil {
		t.Fatalf("answer %.300s: %v", line, err)
	}
	var tools []json.RawMessage
	if err := json.Unmarshal(msg.Result["tools"], &tools); err != nil || (alone && len(msg.Result) != 1) {
		t.Fatalf("not a listing alone: %.300s", line)
	}
	return tools
}

// TestCallsAreAnsweredBeforeTheEnd: requests sent in one burst and the
// input closed at once are all answered, each once; a cancelled call is
// settled without an answer (unless it was answered before its
// cancellation was read), and the server still ends.
func TestCallsAreAnsweredBeforeTheEnd(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	for i := range 40 {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"collab_session_list","arguments":{"workspace_id":"w"}}}`+"\n", i)
		if i == 20 {
			b.WriteString(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":20}}` + "\n")
		}
	}
	seen := map[string]int{}
	for _, line := range burstAnswers(t, fileStore(t), b.String()) {
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		seen[string(msg.ID)]++
	}
	delete(seen, "20") // cancelled: answered only if it finished first
	if len(seen) != 40 {
		t.Fatalf("answered %d distinct requests besides the cancelled one, want 40: %v", len(seen), seen)
	}
	for id, n := range seen {
		if n != 1 {
			t.Fatalf("request %s answered %d times", id, n)
		}
	}
}

// burstAnswers starts a server loop on st, writes burst to it and closes
// its input at once, and returns every line it answers before it ends.
func burstAnswers(t *testing.T, st *store.Store, burst string) [][]byte {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := NewProcess(ProcessConfig{Store: st})
	conn, err := StdioConn(context.Background(), inR, outW)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		io.WriteString(inW, burst)
		inW.Close()
	}()
	go func() {
		if err := p.Dispatcher("test").Serve(context.Background(), conn, nil); err != nil {
			t.Errorf("serve: %v", err)
		}
		outW.Close()
	}()
	var lines [][]byte
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// fileStore is a store on a file of the test's own, closed when it ends.
func fileStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := backend.Open(context.Background(), backend.Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// callTool runs one call on p and returns its structured answer, or an
// error for a refusal.
func callTool(ctx context.Context, p *Process, name string, args map[string]any) (map[string]any, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	for _, tool := range Tools() {
		if tool.Name != name {
			continue
		}
		res, err := p.call(ctx, tool, raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if res.IsError {
			return nil, fmt.Errorf("%s refused: %s", name, res.Content[0].(*sdk.TextContent).Text)
		}
		var out map[string]any
		return out, json.Unmarshal(res.StructuredContent.(json.RawMessage), &out)
	}
	return nil, fmt.Errorf("no tool %s", name)
}

// lineServer is a server on the stdio transport spoken to in raw lines.
type lineServer struct {
	in  io.WriteCloser
	out *bufio.Reader
}

func startLineServer(t testing.TB, st *store.Store, how serving, version string) *lineServer {
	t.Helper()
	return startProfileServer(t, st, how, version, "")
}

// startProfileServer is startLineServer for a process whose tool profile
// (ToolsEnv) is profile.
func startProfileServer(t testing.TB, st *store.Store, how serving, version, profile string) *lineServer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := NewProcess(ProcessConfig{Store: st, Getenv: func(name string) string {
		if name == ToolsEnv {
			return profile
		}
		return ""
	}})
	done := make(chan struct{})
	if how == bySDK {
		ss, err := registryServer(p).Connect(context.Background(), &stdio.Transport{In: inR, Out: outW}, nil)
		if err != nil {
			t.Fatal(err)
		}
		go func() { ss.Wait(); close(done) }()
	} else {
		conn, err := StdioConn(context.Background(), inR, outW)
		if err != nil {
			t.Fatal(err)
		}
		go func() { p.Dispatcher("test").Serve(context.Background(), conn, nil); close(done) }()
	}
	t.Cleanup(func() { inW.Close(); <-done; outW.Close() })
	s := &lineServer{in: inW, out: bufio.NewReaderSize(outR, 1<<20)}
	s.ask(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"`+version+`","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		t.Fatal(err)
	}
	return s
}

// ask sends one request line and returns the response line.
func (s *lineServer) ask(t testing.TB, line string) string {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := s.out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer to %.80s: %v", line, err)
	}
	return resp
}

// BenchmarkRenderLargeAnswer renders a status over 30 claimed tasks (a
// real answer, 48 KB compact) into the bytes of a JSON-RPC result, as a
// call does after the store has answered: json.Marshal of the result (as
// the SDK encodes it), and this server's encoder (wire.go).
func BenchmarkRenderLargeAnswer(b *testing.B) {
	payload, err := os.ReadFile(filepath.Join("testdata", "status-30-claims.json"))
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		name   string
		encode func(*sdk.CallToolResult) ([]byte, error)
	}{
		{"marshal", func(r *sdk.CallToolResult) ([]byte, error) { return json.Marshal(r) }},
		{"encoded", func(r *sdk.CallToolResult) ([]byte, error) { return encodeResult(r) }},
	} {
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(int64(len(payload)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := mode.encode(toolResult(payload, false)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCallsRunInTheOrderTheyArrive sends a session start and 30
// report appends in one burst, without waiting for any answer, and
// requires every append to find the session and to be journalled in the
// order it was sent, as a client pipelining its calls expects.
func TestCallsRunInTheOrderTheyArrive(t *testing.T) {
	st := fileStore(t)
	root := t.TempDir()
	opened, err := st.OpenWorkspace(context.Background(), store.OpenWorkspaceInput{RootPath: root, Actor: "setup"})
	if err != nil {
		t.Fatal(err)
	}
	const appends = 30
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")
	fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"collab_session_start","arguments":{"root_path":%q,"actor":"pipeliner"}}}`+"\n", root)
	for i := range appends {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"collab_report_append","arguments":{"workspace_id":%q,"idempotency_key":"k%d","kind":"observation","body":"report %d"}}}`+"\n",
			i+2, opened.Workspace.ID, i, i)
	}
	sequence := map[int]float64{}
	for _, line := range burstAnswers(t, st, b.String()) {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				Structured map[string]any `json:"structuredContent"`
				IsError    bool           `json:"isError"`
			} `json:"result"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		if msg.ID < 2 {
			continue
		}
		if msg.Result.IsError {
			t.Fatalf("append %d refused: %s", msg.ID-2, line)
		}
		sequence[msg.ID-2] = msg.Result.Structured["report"].(map[string]any)["event_sequence"].(float64)
	}
	if len(sequence) != appends {
		t.Fatalf("%d appends answered, want %d", len(sequence), appends)
	}
	for i := 1; i < appends; i++ {
		if sequence[i] <= sequence[i-1] {
			t.Fatalf("append %d journalled at %v, before append %d at %v", i, sequence[i], i-1, sequence[i-1])
		}
	}
}

// BenchmarkToolsList is one tools/list over the stdio transport, asked of
// this server's loop and of the SDK's server with every tool registered.
func BenchmarkToolsList(b *testing.B) {
	st := fileStore(b)
	for _, how := range []struct {
		name string
		how  serving
	}{{"sdk", bySDK}, {"loop", byLoop}} {
		b.Run(how.name, func(b *testing.B) {
			s := startProfileServer(b, st, how.how, "2025-06-18", "")
			for b.Loop() {
				s.ask(b, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			}
		})
	}
}
