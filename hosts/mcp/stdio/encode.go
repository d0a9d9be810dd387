package stdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// linePool holds the buffers replies are assembled in; a reply is
// written with one Write and its buffer returned.
var linePool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledLine bounds the buffers kept for reuse, so one large page does
// not stay allocated for the life of the process.
const maxPooledLine = 1 << 20

// appendResult appends the line jsonrpc.EncodeMessage would produce for a
// successful response, and its newline, without re-encoding the result.
// EncodeMessage marshals the envelope and, with it, compacts every byte of
// the result again (without HTML escaping), although the server produced the
// result with encoding/json, whose output is already compact: for compact
// JSON that second pass is the identity. ok is false, and nothing is
// appended, for anything else (an error response, an id that is neither
// an integer nor a string, a result holding whitespace between tokens),
// which then goes through EncodeMessage.
func appendResult(dst *bytes.Buffer, resp *jsonrpc.Response) (ok bool) {
	if resp.Error != nil || len(resp.Result) == 0 || !IsCompact(resp.Result) {
		return false
	}
	var id []byte
	if raw, held := WireID(resp.ID); held {
		id = raw
	} else {
		switch v := resp.ID.Raw().(type) {
		case int64:
			id = strconv.AppendInt(nil, v, 10)
		case string:
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if enc.Encode(v) != nil {
				return false
			}
			id = bytes.TrimRight(b.Bytes(), "\n")
		default:
			return false
		}
	}
	dst.Grow(len(`{"jsonrpc":"2.0","id":,"result":}`) + len(id) + len(resp.Result) + 1)
	dst.WriteString(`{"jsonrpc":"2.0","id":`)
	dst.Write(id)
	dst.WriteString(`,"result":`)
	dst.Write(resp.Result)
	dst.WriteString("}\n")
	return true
}

// IsCompact reports whether JSON text holds no whitespace outside its
// strings. It does not validate the text: results reach the transport
// from encoding/json or from the server's own encoder, which only produce
// valid JSON. Strings are skipped in a loop of their own, since most of a
// large result's bytes are inside one.
func IsCompact(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case ' ', '\t', '\n', '\r':
			return false
		}
	}
	return true
}

// EncodeResponse returns the wire form of a response, as this server
// writes every answer on every transport: an error left without a
// JSON-RPC code (code 0) goes out as an internal error, and an id held by
// ClientID carries the client's own text again.
func EncodeResponse(resp *jsonrpc.Response) ([]byte, error) {
	resp = withErrorCode(resp)
	raw, held := WireID(resp.ID)
	if !held {
		data, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			return nil, fmt.Errorf("encode MCP response: %w", err)
		}
		return data, nil
	}
	var b bytes.Buffer
	b.WriteString(`{"jsonrpc":"2.0","id":`)
	b.Write(raw)
	if resp.Error != nil {
		var wire *jsonrpc.Error
		errors.As(resp.Error, &wire) // withErrorCode made it one
		e, err := json.Marshal(wire)
		if err != nil {
			return nil, fmt.Errorf("encode MCP error: %w", err)
		}
		b.WriteString(`,"error":`)
		b.Write(e)
	} else {
		result := resp.Result
		if len(result) == 0 {
			result = json.RawMessage("null")
		}
		b.WriteString(`,"result":`)
		if err := json.Compact(&b, result); err != nil {
			return nil, fmt.Errorf("encode MCP result: %w", err)
		}
	}
	b.WriteString("}")
	return b.Bytes(), nil
}
