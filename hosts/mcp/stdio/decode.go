package stdio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

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

// decodeObject checks the envelope of a JSON object before the server sees it.
func decodeObject(line []byte, fields map[string]json.RawMessage) (jsonrpc.Message, *Rejection) {
	rawID, hasID := fields["id"]
	var id jsonrpc.ID
	var echo json.RawMessage
	if hasID {
		var ok bool
		if id, echo, ok = ClientID(rawID); !ok {
			return nil, reject(nil, jsonrpc.CodeInvalidRequest, "Invalid Request: id must be a string or a number")
		}
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
	params := fields["params"]
	if hasMethod && !hasID && name == CancelledMethod {
		params = cancelledParams(params)
	}
	if hasMethod && !bytes.Equal(params, nullID) {
		req := &jsonrpc.Request{Method: name, Params: params}
		if hasID {
			req.ID = id
		}
		return req, nil
	}
	// The rare shapes left to the SDK's decoder (params given as null, and
	// responses to the server's own requests), with the id held as above.
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, reject(echo, jsonrpc.CodeInvalidRequest, "Invalid Request: %v", err)
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		if hasID {
			m.ID = id
		}
	case *jsonrpc.Response:
		m.ID = id
	}
	return msg, nil
}

// CancelledMethod is the notification a client sends to cancel a request.
const CancelledMethod = "notifications/cancelled"

// cancelledParams returns a cancellation's params with its requestId in
// the form ClientID gives the server, so it names the request the server holds.
// Params that are not an object with a readable requestId are kept.
func cancelledParams(params json.RawMessage) json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil || p == nil {
		return params
	}
	id, _, ok := ClientID(p["requestId"])
	if !ok {
		return params
	}
	held, err := json.Marshal(id.Raw())
	if err != nil {
		return params
	}
	p["requestId"] = held
	out, err := json.Marshal(p)
	if err != nil {
		return params
	}
	return out
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

// CancelledID returns the request a notifications/cancelled names, in the
// form Decode gave the server; ok is false for any other message.
func CancelledID(msg jsonrpc.Message) (jsonrpc.ID, bool) {
	req, isReq := msg.(*jsonrpc.Request)
	if !isReq || req.IsCall() || req.Method != CancelledMethod {
		return jsonrpc.ID{}, false
	}
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) != nil || p.RequestID == nil {
		return jsonrpc.ID{}, false
	}
	id, err := jsonrpc.MakeID(p.RequestID)
	return id, err == nil && id.IsValid()
}
