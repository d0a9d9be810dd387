package stdio

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// badLines are the malformed lines every layer must answer and survive;
// the process-level test in cmd/agenttool-collab-mcp reuses the same kinds.
var badLines = []struct {
	name string
	line string
	code int64
	id   string
}{
	{"not JSON", "not json", jsonrpc.CodeParseError, "null"},
	{"JSON scalar", "42", jsonrpc.CodeInvalidRequest, "null"},
	{"JSON string", `"ping"`, jsonrpc.CodeInvalidRequest, "null"},
	{"JSON null", "null", jsonrpc.CodeInvalidRequest, "null"},
	{"empty array", "[]", jsonrpc.CodeInvalidRequest, "null"},
	{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, jsonrpc.CodeInvalidRequest, "null"},
	{"UTF-8 BOM", "\ufeff" + `{"jsonrpc":"2.0","id":1,"method":"ping"}`, jsonrpc.CodeParseError, "null"},
	{"raw control character in a string", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\x01ng\"}", jsonrpc.CodeParseError, "null"},
	{"trailing garbage", `{"jsonrpc":"2.0","id":1,"method":"ping"} xx`, jsonrpc.CodeParseError, "null"},
	{"two objects on one line", `{"jsonrpc":"2.0","id":1,"method":"ping"}{"jsonrpc":"2.0","id":2,"method":"ping"}`, jsonrpc.CodeParseError, "null"},
	{"truncated", `{"jsonrpc":"2.0","id":1,"meth`, jsonrpc.CodeParseError, "null"},
	{"1,000 nested arrays", strings.Repeat("[", 1000) + strings.Repeat("]", 1000), jsonrpc.CodeInvalidRequest, "null"},
	{"1,000 levels inside params", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","arguments":{"a":` +
		strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}}}`, jsonrpc.CodeInvalidParams, "7"},
	{"20,000 nested arrays", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), jsonrpc.CodeParseError, "null"},
	{"no jsonrpc member", `{"id":3,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "3"},
	{"wrong jsonrpc version", `{"jsonrpc":"1.0","id":"a","method":"ping"}`, jsonrpc.CodeInvalidRequest, `"a"`},
	{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
	{"boolean id", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
	{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
	{"array id", `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, jsonrpc.CodeInvalidRequest, "null"},
	{"method not a string", `{"jsonrpc":"2.0","id":4,"method":5}`, jsonrpc.CodeInvalidRequest, "4"},
	{"neither request nor response", `{"jsonrpc":"2.0","id":5}`, jsonrpc.CodeInvalidRequest, "5"},
}

func TestDecodeAnswersEveryBadLine(t *testing.T) {
	for _, tc := range badLines {
		t.Run(tc.name, func(t *testing.T) {
			msg, rej := Decode(Frame{Line: []byte(tc.line)}, DefaultMaxLineBytes)
			if rej == nil {
				t.Fatalf("accepted as %#v", msg)
			}
			if rej.Code != tc.code || string(rej.ID) != tc.id {
				t.Fatalf("code %d id %s (%s), want code %d id %s", rej.Code, rej.ID, rej.Message, tc.code, tc.id)
			}
			var wire map[string]any
			data, err := json.Marshal(rej)
			if err != nil || json.Unmarshal(data, &wire) != nil {
				t.Fatalf("rejection does not encode: %s %v", data, err)
			}
			if _, ok := wire["id"]; !ok || wire["jsonrpc"] != "2.0" {
				t.Fatalf("rejection lacks jsonrpc or id: %s", data)
			}
		})
	}
}

func TestDecodeRejectsAnOverLongLineWithItsSize(t *testing.T) {
	_, rej := Decode(Frame{TooLong: 9 << 20}, DefaultMaxLineBytes)
	if rej == nil || rej.Code != jsonrpc.CodeInvalidRequest || string(rej.ID) != "null" || !strings.Contains(rej.Message, "9437184 bytes") {
		t.Fatalf("rejection = %+v", rej)
	}
}

func TestDecodePassesWellFormedMessages(t *testing.T) {
	cases := []struct {
		name, line string
		isCall     bool
	}{
		{"call with integer id", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, true},
		{"call with string id", `{"jsonrpc":"2.0","id":"x","method":"ping","params":{}}`, true},
		{"notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false},
		{"ping with null params", `{"jsonrpc":"2.0","id":2,"method":"ping","params":null}`, true},
		{"surrounding spaces", `  {"jsonrpc":"2.0","id":3,"method":"ping"}  `, true},
		{"nesting at the limit", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"x","arguments":{"a":` +
			strings.Repeat("[", MaxDepth-3) + strings.Repeat("]", MaxDepth-3) + `}}}`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg, rej := Decode(Frame{Line: []byte(tc.line)}, DefaultMaxLineBytes)
			if rej != nil {
				t.Fatalf("rejected: %+v", rej)
			}
			req, ok := msg.(*jsonrpc.Request)
			if !ok || req.IsCall() != tc.isCall {
				t.Fatalf("decoded %#v", msg)
			}
		})
	}
	if msg, rej := Decode(Frame{Line: []byte(`{"jsonrpc":"2.0","id":9,"result":{}}`)}, 10); rej != nil {
		t.Fatalf("a client's response was rejected: %+v", rej)
	} else if _, ok := msg.(*jsonrpc.Response); !ok {
		t.Fatalf("a client's response decoded as %#v", msg)
	}
	if msg, rej := Decode(Frame{Line: []byte("   ")}, 10); msg != nil || rej != nil {
		t.Fatalf("a blank line yielded %#v %+v", msg, rej)
	}
}

// TestDecodeBuildsTheRequestTheSDKWould checks the decoder's own request
// construction against the SDK's decoder, field for field, on the shapes
// clients send: integer and string ids, notifications, params of every
// JSON kind, escapes, whitespace, unknown members and duplicate keys.
func TestDecodeBuildsTheRequestTheSDKWould(t *testing.T) {
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"","method":"ping"}`,
		`{"jsonrpc":"2.0","id":"a\u00e9\"b","method":"tools/call","params":{"name":"collab_next","arguments":{}}}`,
		`{"method":"tools/call","params":{"name":"x","arguments":{"k":"v \u2028 \\n"}},"id":7,"jsonrpc":"2.0","extra":true}`,
		`{ "jsonrpc" : "2.0" , "id" : 8 , "method" : "tools/call" , "params" : { "a" : [ 1 , 2 ] } }`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","id":9,"method":"x","params":[1,"two",{"3":null}]}`,
		`{"jsonrpc":"2.0","id":10,"method":"x","params":"text"}`,
		`{"jsonrpc":"2.0","id":11,"method":"x","params":12.5e3}`,
		`{"jsonrpc":"2.0","id":12,"method":"x","params":{}}`,
		`{"jsonrpc":"2.0","id":13,"method":"","params":{}}`,
		`{"jsonrpc":"2.0","id":14,"method":"first","method":"second"}`,
		`{"jsonrpc":"2.0","id":15,"id":16,"method":"x"}`,
		`{"jsonrpc":"2.0","id":17,"method":"x","params":{"a":1},"params":{"b":2}}`,
		`{"jsonrpc":"2.0","id":18,"method":"x","params":null}`,
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			got, rej := Decode(Frame{Line: []byte(line)}, DefaultMaxLineBytes)
			if rej != nil {
				t.Fatalf("rejected: %+v", rej)
			}
			want, err := jsonrpc.DecodeMessage([]byte(line))
			if err != nil {
				t.Fatalf("the SDK refused it: %v", err)
			}
			g, w := got.(*jsonrpc.Request), want.(*jsonrpc.Request)
			if g.Method != w.Method || g.ID != w.ID || string(g.Params) != string(w.Params) || (g.Params == nil) != (w.Params == nil) {
				t.Fatalf("decoded %q id %v params %q (nil %v); the SDK: %q id %v params %q (nil %v)",
					g.Method, g.ID.Raw(), g.Params, g.Params == nil, w.Method, w.ID.Raw(), w.Params, w.Params == nil)
			}
		})
	}
}

// BenchmarkDecodeToolCall measures decoding one tools/call line, the
// first step of every call.
func BenchmarkDecodeToolCall(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"collab_report_append",` +
		`"arguments":{"workspace_id":"ws_0123456789abcdef","session_id":"ses_0123456789abcdef","kind":"progress",` +
		`"summary":"benchmark report","idempotency_key":"key-0001"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, rej := Decode(Frame{Line: line}, DefaultMaxLineBytes); rej != nil {
			b.Fatal(rej)
		}
	}
}
