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
		{"fields after the content", &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "x"}},
			StructuredContent: json.RawMessage(`{}`), IsError: true, RequestState: "state <&> \u2028"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := encodeResult(c.result); !ok {
				t.Fatal("the result was left to the SDK")
			}
			if got, want := sdkEncoding(t, &encodedResult{c.result}), sdkEncoding(t, c.result); got != want {
				t.Fatalf("encoded differently:\n got  %.400s\n want %.400s", got, want)
			}
		})
	}
}

// TestResultsTheServerDoesNotBuildAreLeftToTheSDK: anything but one plain
// text block with raw compact structured content, and no metadata, is
// encoded by the SDK, even when wrapped.
func TestResultsTheServerDoesNotBuildAreLeftToTheSDK(t *testing.T) {
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
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := encodeResult(c.result); ok {
				t.Fatalf("encoded %s itself", sdkEncoding(t, c.result))
			}
			if got, want := sdkEncoding(t, &encodedResult{c.result}), sdkEncoding(t, c.result); got != want {
				t.Fatalf("left to the SDK, but encoded differently:\n got  %s\n want %s", got, want)
			}
		})
	}
}

// serving names the three ways a stdio server may answer a call: the SDK
// encoding the result, the catalog encoding it (wire.go), and a direct
// connection serving the call itself (direct.go).
type serving int

const (
	bySDK serving = iota
	byCatalog
	directly
)

// TestToolCallLinesAreTheSDKs runs the same calls against a server that
// leaves results to the SDK, one whose catalog encodes them and one that
// serves calls directly, over the stdio transport, and requires identical
// response lines, for clients of an older and of the newest protocol this
// server speaks: answers, refusals, rejections, unknown tools, a waiting
// tool (left to the SDK), calls with a plain _meta (served directly) and
// with the SDK's per-request protocol _meta (left to it).
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
		`{"name":"collab_journal_verify","arguments":null}`,
		`{"name":"collab_no_such_tool","arguments":{}}`,
		`{"name":"collab_wait","arguments":{"workspace_id":"` + ws + `","timeout_ms":1}}`,
		`{"name":"collab_events_since","arguments":{"workspace_id":"` + ws + `","after_sequence":1},"_meta":{"progressToken":3}}`,
		`{"name":"collab_events_since","arguments":{"workspace_id":"` + ws + `","after_sequence":1},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`,
		`{"name":"collab_events_since","arguments":{"workspace_id":"` + ws + `"},"extra":1}`,
	}
	for _, version := range []string{"2025-06-18", ProtocolVersions[0]} {
		t.Run(version, func(t *testing.T) {
			servers := []*lineServer{startLineServer(t, st, bySDK, version), startLineServer(t, st, byCatalog, version),
				startLineServer(t, st, directly, version)}
			for i, params := range calls {
				line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s}`, i+10, params)
				want := servers[0].ask(t, line)
				for _, s := range servers[1:] {
					if got := s.ask(t, line); got != want {
						t.Fatalf("call %s:\n got  %.600s\n want %.600s", params, got, want)
					}
				}
			}
		})
	}
}

// TestToolListLinesAreTheSDKs asks a server that leaves tools/list to
// the SDK and one that answers it directly (from the listing rendered once,
// and the gate's ordering of it kept) the same listings, each twice, for
// every kind of profile, and requires identical lines: with params absent,
// null, empty, an empty or unknown cursor, a plain _meta and the SDK's own.
func TestToolListLinesAreTheSDKs(t *testing.T) {
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
			sdk := startProfileServer(t, st, bySDK, "2025-06-18", profile)
			direct := startProfileServer(t, st, directly, "2025-06-18", profile)
			for round := range 2 {
				for _, line := range asks {
					want := sdk.ask(t, line)
					if got := direct.ask(t, line); got != want {
						t.Fatalf("round %d, %s:\n got  %.400s\n want %.400s", round, line, got, want)
					}
					if !strings.Contains(want, `"result":{"tools":[`) {
						t.Fatalf("%s: no listing in %.300s", line, want)
					}
				}
			}
		})
	}
}

// TestOnlyAFirstPageListingIsAnsweredDirectly: below a gate the params of
// tools/list are already gone; over any other transport, a listing that
// asks for anything but the first page is left to the SDK.
func TestOnlyAFirstPageListingIsAnsweredDirectly(t *testing.T) {
	for _, c := range []struct {
		params string
		want   bool
	}{
		{``, true}, {`null`, true}, {`{}`, true}, {`{"cursor":""}`, true}, {`{"_meta":{"progressToken":1}}`, true},
		{`{"cursor":"next"}`, false}, {`{"cursor":7}`, false}, {`{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}`, false},
		{`{"other":1}`, false}, {`[]`, false}, {`7`, false}, {`{`, false},
	} {
		if got := firstPage(json.RawMessage(c.params)); got != c.want {
			t.Errorf("firstPage(%s) = %v, want %v", c.params, got, c.want)
		}
	}
}

// TestTheGateOrdersEachListingItIsGiven: the gate keeps its last ordering,
// and a different listing is ordered afresh, not answered from it.
func TestTheGateOrdersEachListingItIsGiven(t *testing.T) {
	order := toolOrder()
	g := NewListingOrder()
	listings := []json.RawMessage{
		json.RawMessage(`{"ttlMs":0,"tools":[{"name":"collab_next"},{"name":"collab_session_start"}]}`),
		json.RawMessage(`{"tools":[{"name":"collab_search"},{"name":"collab_session_join"}]}`),
	}
	for _, i := range []int{0, 0, 1, 0, 1, 1} {
		want, err := orderTools(listings[i], order)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.Apply(listings[i])
		if err != nil || string(got) != string(want) {
			t.Fatalf("listing %d: got %s, %v; want %s", i, got, err, want)
		}
	}
}

// TestDirectCallsAreAnsweredBeforeTheEnd: requests sent in one burst and
// the input closed at once are all answered, each once, by a server that
// serves calls directly; a cancelled direct call is settled without an
// answer (unless it was answered before its cancellation was read), and the
// server still ends.
func TestDirectCallsAreAnsweredBeforeTheEnd(t *testing.T) {
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

// burstAnswers starts a server that serves calls directly on st, writes
// burst to it and closes its input at once, and returns every line it
// answers before it ends.
func burstAnswers(t *testing.T, st *store.Store, burst string) [][]byte {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := NewProcess(ProcessConfig{Store: st})
	ss, err := NewServer("test", p).Connect(context.Background(), p.ServeCallsDirectly(StdioTransport(inR, outW)), nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		io.WriteString(inW, burst)
		inW.Close()
	}()
	go func() { ss.Wait(); outW.Close() }()
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
	transport := StdioTransport(inR, outW)
	if how == directly {
		transport = p.ServeCallsDirectly(transport)
	}
	srv := newServerEncoding("test", p, "", how != bySDK)
	ss, err := srv.Connect(context.Background(), transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { inW.Close(); ss.Wait(); outW.Close() })
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
// call does after the store has answered: the SDK's encoding of the
// result, and this server's (wire.go).
func BenchmarkRenderLargeAnswer(b *testing.B) {
	payload, err := os.ReadFile(filepath.Join("testdata", "status-30-claims.json"))
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		name   string
		encode bool
	}{{"sdk", false}, {"encoded", true}} {
		b.Run(mode.name, func(b *testing.B) {
			b.SetBytes(int64(len(payload)))
			b.ReportAllocs()
			for b.Loop() {
				var res any = toolResult(payload, false)
				if mode.encode {
					res = &encodedResult{res.(*sdk.CallToolResult)}
				}
				var out bytes.Buffer
				e := json.NewEncoder(&out)
				e.SetEscapeHTML(false)
				if err := e.Encode(res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDirectCallsRunInTheOrderTheyArrive sends a session start and 30
// report appends in one burst, without waiting for any answer, and
// requires every append to find the session and to be journalled in the
// order it was sent, as a client pipelining its calls expects.
func TestDirectCallsRunInTheOrderTheyArrive(t *testing.T) {
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
// a server that answers it directly (the listing rendered once, its order
// kept by the gate) and of one that leaves it to the SDK.
func BenchmarkToolsList(b *testing.B) {
	st := fileStore(b)
	for _, how := range []struct {
		name string
		how  serving
	}{{"sdk", bySDK}, {"direct", directly}} {
		b.Run(how.name, func(b *testing.B) {
			s := startProfileServer(b, st, how.how, "2025-06-18", "")
			for b.Loop() {
				s.ask(b, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
			}
		})
	}
}
