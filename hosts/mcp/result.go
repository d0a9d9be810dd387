package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
)

// guardAbortMessage is what SQLite reports when a legacy write touches a
// session-owned task; it is surfaced verbatim as internal_error.
const guardAbortMessage = "agenttool_collab_v2_write_requires_v2_client"

// toolResult builds a result whose structuredContent is payload and whose
// text content mirrors it as indented JSON, in the same key order, with
// U+2028/U+2029 raw as JSON.stringify writes them.
func toolResult(payload []byte, isError bool) *sdk.CallToolResult {
	payload = canon.RawLineSeparators(payload)
	// The payload is always encoding/json's output, so valid JSON:
	// success encodes every answer with answer.Encode, which also checks
	// a replayed receipt's stored bytes (an invalid one fails the call
	// there), and failure builds its object with encoding/json.
	var pretty bytes.Buffer
	indentJSON(&pretty, payload)
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: pretty.String()}},
		StructuredContent: json.RawMessage(payload),
		IsError:           isError,
	}
}

// success renders a handler's payload the way answers are rendered
// (compact, no HTML escaping, U+2028/U+2029 raw).
func success(payload any) (*sdk.CallToolResult, error) {
	b, err := answer.Encode(payload)
	if err != nil {
		return nil, fmt.Errorf("encode tool result: %w", err)
	}
	return toolResult(b, false), nil
}

// failure renders a refusal as {error, message, ...details}; any other
// error becomes internal_error with a message scrubbed of secrets.
func failure(err error, scrub func(string) string) *sdk.CallToolResult {
	ce, ok := collaberr.As(err)
	if !ok {
		msg := err.Error()
		if strings.Contains(msg, guardAbortMessage) {
			msg = guardAbortMessage
		}
		ce = collaberr.New(collaberr.InternalError, scrub(msg))
	}
	var b bytes.Buffer
	w := objectWriter{buf: &b}
	w.field("error", ce.Code)
	w.field("message", scrub(ce.Message))
	for _, d := range ce.Details {
		if d.Key == "error" || d.Key == "message" {
			continue
		}
		w.field(d.Key, d.Value)
	}
	w.close()
	if w.err != nil {
		return toolResult([]byte(`{"error":"internal_error","message":"the error details could not be encoded"}`), true)
	}
	return toolResult(b.Bytes(), true)
}

// rejection renders an input-schema violation: text only, no structured
// content, exactly as MCP SDKs report invalid arguments.
func rejection(text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, IsError: true}
}
