package mcp

import (
	"bytes"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/hosts/mcp/stdio"
)

// A tool result encoded once.
//
// The SDK turns a *CallToolResult into JSON through encoding/json's
// reflection: the text block is marshalled on its own, then compacted into
// the result, the structured content is compacted, and the whole result
// is compacted again into the response, every pass through encoding/json's
// validating scanner. For the large answers (a status or a poll over many
// claimed tasks is 100 KB and more on the wire) those passes were most of
// the call's CPU. encodeResult writes the same bytes in one pass of plain
// loops. The catalog hands the SDK each result as an encodedResult, whose
// MarshalJSON returns them (the SDK still checks them once as it builds
// the response); a direct connection (direct.go) writes them itself.

// encodedResult is a tool result that encodes itself. It embeds the
// result, so that what the SDK does to a result after the handler (its
// middleware, a resultType or _meta it sets) still happens to it, and is
// encoded at the moment the SDK marshals it.
type encodedResult struct {
	*sdk.CallToolResult
}

// MarshalJSON returns the bytes the SDK's own encoding of the result
// gives: written by encodeResult where it can, by the SDK otherwise.
func (r *encodedResult) MarshalJSON() ([]byte, error) {
	if wire, ok := encodeResult(r.CallToolResult); ok {
		return wire, nil
	}
	return r.CallToolResult.MarshalJSON()
}

// emptyContentPrefix is how the SDK's encoding of a result with no content
// and no earlier field (no _meta) begins; what follows it is the fields
// after content, isError and structuredContent in the SDK's order.
const emptyContentPrefix = `{"content":null`

// encodeResult writes r as the SDK would. ok is false, and r must be left
// to the SDK, for any result this server does not build: content other
// than one plain text block, structured content that is not compact raw
// JSON, or metadata (which comes before the content).
func encodeResult(r *sdk.CallToolResult) (wire []byte, ok bool) {
	if len(r.Content) != 1 || r.Meta != nil {
		return nil, false
	}
	text, isText := r.Content[0].(*sdk.TextContent)
	if !isText || text.Meta != nil || text.Annotations != nil {
		return nil, false
	}
	var structured json.RawMessage
	if r.StructuredContent != nil {
		raw, isRaw := r.StructuredContent.(json.RawMessage)
		if !isRaw || len(raw) == 0 || !stdio.IsCompact(raw) { // the SDK writes a nil RawMessage as null
			return nil, false
		}
		structured = raw
	}
	// The fields after isError (inputRequests, requestState, and the
	// resultType the SDK sets, unexported, for clients of the newest
	// protocols) are encoded as the SDK encodes them: encode r without its
	// content to learn them.
	probe := *r
	probe.Content, probe.StructuredContent, probe.IsError = nil, nil, false
	tail, err := json.Marshal(&probe)
	if err != nil || !bytes.HasPrefix(tail, []byte(emptyContentPrefix)) {
		return nil, false
	}
	tail = tail[len(emptyContentPrefix):]

	var b bytes.Buffer
	b.Grow(len(`{"content":[{"type":"text","text":""}],"structuredContent":,"isError":true`) +
		len(text.Text) + len(text.Text)/4 + len(structured) + len(tail))
	b.WriteString(`{"content":[{"type":"text","text":`)
	// The SDK's text block is json.Marshal's, HTML escaping included;
	// encoding/json writes a string in a loop of its own, without its
	// scanner, so the same encoder gives the same bytes at no extra pass.
	if err := json.NewEncoder(&b).Encode(text.Text); err != nil {
		return nil, false
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
	b.Write(tail)
	return b.Bytes(), true
}
