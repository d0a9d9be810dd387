package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/hosts/mcp/stdio"
)

// encodeResult writes a tool result as the JSON of an MCP CallToolResult,
// in one pass: {"content":[{"type":"text","text":...}],
// "structuredContent":...,"isError":true}, the last two only when set.
// The text is written by encoding/json's string encoder (HTML characters
// escaped, as json.Marshal writes them) and the structured content is the
// handler's compact JSON with the same escaping; a status or a poll over
// many claimed tasks is 100 KB and more, and re-validating it through
// encoding/json's scanner was most of such a call's CPU. A result of any
// other shape (this server builds none) is left to json.Marshal.
func encodeResult(r *sdk.CallToolResult) (json.RawMessage, error) {
	text, structured, plain := plainResult(r)
	if !plain {
		raw, err := json.Marshal(r)
		if err != nil {
			return nil, fmt.Errorf("encode tool result: %w", err)
		}
		return raw, nil
	}
	var b bytes.Buffer
	b.Grow(len(`{"content":[{"type":"text","text":""}],"structuredContent":,"isError":true}`) +
		len(text) + len(text)/4 + len(structured))
	b.WriteString(`{"content":[{"type":"text","text":`)
	if err := json.NewEncoder(&b).Encode(text); err != nil {
		return nil, fmt.Errorf("encode tool result text: %w", err)
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	b.WriteString(`}]`)
	if structured != nil {
		b.WriteString(`,"structuredContent":`)
		json.HTMLEscape(&b, structured)
	}
	if r.IsError {
		b.WriteString(`,"isError":true`)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// plainResult returns the text and structured content of a result of the
// shape this server builds (toolResult, rejection): one text block
// without metadata, structured content absent or compact raw JSON, no
// metadata, no input requests or request state. plain is false for
// anything else.
func plainResult(r *sdk.CallToolResult) (text string, structured json.RawMessage, plain bool) {
	if len(r.Content) != 1 || r.Meta != nil || r.InputRequests != nil || r.RequestState != "" {
		return "", nil, false
	}
	block, isText := r.Content[0].(*sdk.TextContent)
	if !isText || block.Meta != nil || block.Annotations != nil {
		return "", nil, false
	}
	if r.StructuredContent != nil {
		raw, isRaw := r.StructuredContent.(json.RawMessage)
		if !isRaw || len(raw) == 0 || !stdio.IsCompact(raw) {
			return "", nil, false
		}
		structured = raw
	}
	return block.Text, structured, true
}
