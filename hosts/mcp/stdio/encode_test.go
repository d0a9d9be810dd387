package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRepliesAreTheBytesEncodeMessageWrites writes responses through the
// transport and compares each line with what jsonrpc.EncodeMessage gives
// for the same message: the shortcut that skips re-compacting a result
// must never change a byte, whatever the id, the characters in the result
// (HTML, U+2028, escapes, spaces inside strings) or its layout.
func TestRepliesAreTheBytesEncodeMessageWrites(t *testing.T) {
	tool := &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: "{\n  \"a\": \"<b> & \\u2028\u2028 \\\"q\\\"\"\n}"}},
		StructuredContent: map[string]any{"a": "<b> & \u2028 \"q\" \\", "n": 1.5, "list": []any{" x ", nil, true}},
	}
	toolResult := mustMarshal(tool)
	ids := []any{float64(0), float64(7), float64(-3), float64(1 << 40), "abc", "<id> & \u2028 \"quoted\"", ""}
	results := []string{`{}`, `[]`, `"s p a c e"`, `{"a":"x\"y","b":[1,2,{"c":" "}]}`, string(toolResult),
		"{ \"spaced\": true }", "{\"a\":\n1}", `{"esc":"\\"}`, `{"esc":"\\\" "}`, `{"esc":"\\ "}`}
	for _, rawID := range ids {
		for _, result := range results {
			t.Run(fmt.Sprintf("%v/%s", rawID, result), func(t *testing.T) {
				id, err := jsonrpc.MakeID(rawID)
				if err != nil {
					t.Fatal(err)
				}
				resp := &jsonrpc.Response{ID: id, Result: []byte(result)}
				want, err := jsonrpc.EncodeMessage(resp)
				if err != nil {
					t.Fatal(err)
				}
				var out bytes.Buffer
				c := &conn{out: &out, pending: map[jsonrpc.ID]*pendingCall{}, drained: make(chan struct{}), closed: make(chan struct{})}
				if err := c.Write(context.Background(), resp); err != nil {
					t.Fatal(err)
				}
				if got := out.String(); got != string(want)+"\n" {
					t.Fatalf("wrote  %s\nwant   %s", got, want)
				}
			})
		}
	}
	// Error responses keep going through EncodeMessage.
	id, _ := jsonrpc.MakeID(float64(9))
	resp := &jsonrpc.Response{ID: id, Error: errors.New("boom")}
	var out bytes.Buffer
	if appendResult(&out, resp) || out.Len() != 0 {
		t.Fatalf("an error response took the shortcut: %q", out.String())
	}
}

func mustID(v any) jsonrpc.ID {
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		panic(err)
	}
	return id
}

// mustMarshal encodes v as the SDK encodes a result: encoding/json
// without HTML escaping.
func mustMarshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// BenchmarkWriteToolResult measures writing one 30 KB tool reply.
func BenchmarkWriteToolResult(b *testing.B) {
	page := make([]any, 60)
	for i := range page {
		page[i] = map[string]any{"sequence": i, "type": "report.appended", "payload": map[string]any{"body": "The parser handles nested quotes; tokenizer tests pass <ok>."}}
	}
	result := mustMarshal(&sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprint(page)}},
		StructuredContent: map[string]any{"events": page}})
	resp := &jsonrpc.Response{ID: mustID(float64(42)), Result: result}
	c := &conn{out: discard{}, pending: map[jsonrpc.ID]*pendingCall{}, drained: make(chan struct{}), closed: make(chan struct{})}
	b.SetBytes(int64(len(result)))
	for b.Loop() {
		if err := c.Write(context.Background(), resp); err != nil {
			b.Fatal(err)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
