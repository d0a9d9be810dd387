package httpserve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
)

// CodeTooManySessions is the JSON-RPC error code of a new MCP session
// refused by a session cap (in the range JSON-RPC leaves to servers).
const CodeTooManySessions = -32005

// refuseSession answers a request for a new MCP session that a cap
// refused: 429 with Retry-After (whole seconds until the soonest place of
// that cap frees up, at least 1) and a JSON-RPC error naming the cap,
// echoing the request's id when the body holds one.
func (s *Server) refuseSession(w http.ResponseWriter, r *http.Request, full *capRefusal) {
	wait := max(1, int(math.Ceil(full.retryAfter.Seconds())))
	s.log.Info("refused", "status", http.StatusTooManyRequests, "reason", full.reason, "method", r.Method, "remote", r.RemoteAddr)
	body := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{JSONRPC: "2.0", ID: requestID(r), Error: rpcError{Code: CodeTooManySessions,
		Message: fmt.Sprintf("%s; retry in %d s, or end (HTTP DELETE) the sessions you no longer use", full.reason, wait),
		Data:    map[string]int{"retry_after_seconds": wait}}}
	b, err := json.Marshal(body)
	if err != nil {
		http.Error(w, full.reason, http.StatusTooManyRequests)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", strconv.Itoa(wait))
	w.WriteHeader(http.StatusTooManyRequests)
	w.Write(b)
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

// requestID is the id of the single JSON-RPC request in r's body, exactly
// as written, or null when there is none (a notification, a batch, an id
// that is no string or number, or a body that is not JSON). The body is bounded by the guard.
func requestID(r *http.Request) json.RawMessage {
	null := json.RawMessage("null")
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return null
	}
	var msg struct {
		ID json.RawMessage `json:"id"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&msg) != nil || len(msg.ID) == 0 || msg.ID[0] == '{' || msg.ID[0] == '[' {
		return null
	}
	return msg.ID
}
