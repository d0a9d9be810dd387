package stdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxDepth is the deepest nesting of objects and arrays a message may
// have. The SDK's decoder refuses more than 1,000 levels; this limit is
// below it, so every message let through can be decoded.
const MaxDepth = 512

// maxSafeID bounds numeric request ids to integers a JSON number of any
// client (and the SDK's float64 decoding) holds exactly.
const maxSafeID = 1<<53 - 1

// Rejection is the JSON-RPC error answer to a line that cannot be
// handed to the server. ID is the raw id to echo: "null" when the line
// carried none that could be read.
type Rejection struct {
	ID      json.RawMessage
	Code    int64
	Message string
}

// MarshalJSON renders the rejection as a JSON-RPC error response; unlike
// the SDK's encoder it writes "id": null when no id could be read, as
// JSON-RPC 2.0 requires.
func (r *Rejection) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", r.ID, jsonrpc.Error{Code: r.Code, Message: r.Message}})
}

var nullID = json.RawMessage("null")

func reject(id json.RawMessage, code int64, format string, args ...any) *Rejection {
	if id == nil {
		id = nullID
	}
	return &Rejection{ID: id, Code: code, Message: fmt.Sprintf(format, args...)}
}

// Decode turns one frame into a JSON-RPC message, or into the rejection
// that answers it. A blank line yields neither.
func Decode(f Frame, limit int) (jsonrpc.Message, *Rejection) {
	if f.TooLong > 0 {
		return nil, reject(nil, jsonrpc.CodeInvalidRequest,
			"Invalid Request: a message of %d bytes exceeds the %d-byte limit and was skipped", f.TooLong, limit)
	}
	line := bytes.TrimSpace(f.Line)
	if len(line) == 0 {
		return nil, nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(line, &fields); err != nil {
		var syntax *json.SyntaxError
		switch {
		case errors.As(err, &syntax):
			return nil, reject(nil, jsonrpc.CodeParseError, "Parse error: the line is not one JSON value (%v)", err)
		case line[0] == '[':
			return nil, reject(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: batches are not supported; send one JSON object per line")
		default:
			return nil, reject(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: a message must be a JSON object")
		}
	}
	return decodeObject(line, fields)
}

// decodeObject checks the envelope of a JSON object before the SDK sees it.
func decodeObject(line []byte, fields map[string]json.RawMessage) (jsonrpc.Message, *Rejection) {
	rawID, hasID := fields["id"]
	var echo json.RawMessage
	if hasID {
		if !validID(rawID) {
			return nil, reject(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: id must be a string or an integer")
		}
		echo = rawID
	}
	if v := fields["jsonrpc"]; string(bytes.TrimSpace(v)) != `"2.0"` {
		return nil, reject(echo, jsonrpc.CodeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`)
	}
	method, hasMethod := fields["method"]
	var name string
	if hasMethod {
		if json.Unmarshal(method, &name) != nil {
			return nil, reject(echo, jsonrpc.CodeInvalidRequest, "Invalid Request: method must be a string")
		}
	} else {
		_, hasResult := fields["result"]
		_, hasError := fields["error"]
		if !hasID || (!hasResult && !hasError) {
			return nil, reject(echo, jsonrpc.CodeInvalidRequest, "Invalid Request: a message needs a method, or an id with a result or an error")
		}
	}
	if depth(line) > MaxDepth {
		code := int64(jsonrpc.CodeInvalidRequest)
		if hasMethod && hasID {
			code = jsonrpc.CodeInvalidParams
		}
		return nil, reject(echo, code, "the message nests deeper than %d levels", MaxDepth)
	}
	if hasMethod {
		if req, ok := request(name, rawID, hasID, fields["params"]); ok {
			return req, nil
		}
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, reject(echo, jsonrpc.CodeInvalidRequest, "Invalid Request: %v", err)
	}
	return msg, nil
}

// request builds the request the SDK's decoder would build from an
// envelope already checked, without decoding the line a second time (the
// SDK's decoder allocates a 32 KB buffer per message). ok is false for the
// rare shapes left to the SDK: params given as null.
func request(method string, rawID json.RawMessage, hasID bool, params json.RawMessage) (*jsonrpc.Request, bool) {
	if bytes.Equal(params, nullID) {
		return nil, false
	}
	req := &jsonrpc.Request{Method: method, Params: params}
	if !hasID {
		return req, true
	}
	rawID = bytes.TrimSpace(rawID)
	if rawID[0] == '"' {
		var s string
		if json.Unmarshal(rawID, &s) != nil {
			return nil, false
		}
		id, err := jsonrpc.MakeID(s)
		req.ID = id
		return req, err == nil
	}
	n, err := strconv.ParseInt(string(rawID), 10, 64)
	if err != nil {
		return nil, false
	}
	id, err := jsonrpc.MakeID(float64(n)) // exact: validID bounds n by 2^53
	req.ID = id
	return req, err == nil
}

// validID reports whether raw is an id this server can echo exactly: a
// string, or an integer within ±(2^53-1).
func validID(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return false
	}
	if raw[0] == '"' {
		var s string
		return json.Unmarshal(raw, &s) == nil
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n >= -maxSafeID && n <= maxSafeID
}

// depth returns the deepest nesting of objects and arrays in a JSON text
// that is already known to be valid.
func depth(data []byte) int {
	var d, deepest int
	inString, escaped := false, false
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			d++
			if d > deepest {
				deepest = d
			}
		case '}', ']':
			d--
		}
	}
	return deepest
}
