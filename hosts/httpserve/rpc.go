package httpserve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/hosts/mcp"
	"github.com/agenttool/collab/hosts/mcp/stdio"
)

// The JSON-RPC layer of the HTTP face.
//
// The SDK's HTTP handler decodes, routes and encodes messages by its own
// rules, which differ from the ones the stdio server keeps. rpc stands
// between the guard and that handler and applies the stdio server's rules
// to every POST, so that one client sees one server whichever transport
// it uses:
//   - the envelope is checked by the stdio decoder (stdio.Decode): the
//     same refusals, and ids held as the client wrote them (stdio.ClientID),
//     answered with the client's text again (stdio.EncodeResponse), which
//     also gives every error the SDK left without a code (0) -32603;
//   - initialize is checked and its protocol version negotiated by the
//     same code as on stdio (mcp.CheckInitialize); the SDK, which speaks
//     fewer versions, is handed the nearest version it speaks, and the
//     Mcp-Protocol-Version header of later requests is mapped the same way;
//   - other requests are screened as on stdio (mcp.Screen): methods no
//     capability covers are -32601, malformed tools/call params -32602;
//     a tools/list answer is {"tools":[...]} in the reference's order
//     (mcp.ListingOrder);
//   - a message other than initialize without an Mcp-Session-Id is 400;
//   - a request the client cancels (notifications/cancelled) gets no
//     answer: its POST ends 202 with an empty body.

// rpc applies the JSON-RPC rules above to POSTs; other methods only have
// their protocol-version header mapped.
func (s *Server) rpc(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mapVersionHeader(r)
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				s.refuse(w, r, http.StatusRequestEntityTooLarge, "request body too large")
			} else {
				s.refuse(w, r, http.StatusBadRequest, "the request body could not be read")
			}
			return
		}
		msg, rej := stdio.Decode(stdio.Frame{Line: body}, int(s.cfg.MaxBodyBytes))
		if rej != nil {
			writeRejection(w, http.StatusBadRequest, rej)
			return
		}
		if msg == nil {
			s.refuse(w, r, http.StatusBadRequest, "POST needs a JSON-RPC message in its body")
			return
		}
		s.serveMessage(w, r, next, msg)
	})
}

// serveMessage answers one decoded message, or hands it to the SDK.
func (s *Server) serveMessage(w http.ResponseWriter, r *http.Request, next http.Handler, msg jsonrpc.Message) {
	sid := r.Header.Get(sessionHeader)
	req, isRequest := msg.(*jsonrpc.Request)
	initialize := isRequest && req.IsCall() && req.Method == "initialize"
	if sid == "" && !initialize {
		var id jsonrpc.ID
		if isRequest {
			id = req.ID
		}
		writeAnswer(w, http.StatusBadRequest, &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: "Bad Request: send the Mcp-Session-Id header that the initialize answer carried, or initialize first"}})
		return
	}
	var fix func(*jsonrpc.Response)
	if isRequest {
		var answer *jsonrpc.Response
		if fix, answer = s.prepare(req, sid); answer != nil {
			writeAnswer(w, http.StatusOK, answer)
			return
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		s.refuse(w, r, http.StatusBadRequest, "the message could not be re-encoded")
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
	r.ContentLength = int64(len(data))
	if !isRequest || !req.IsCall() {
		next.ServeHTTP(w, r)
		return
	}
	s.serveCall(w, r, next, req, sid, fix)
}

// prepare readies a request for the SDK as the stdio server does, and
// returns how to adjust the SDK's answer; or it returns the answer the
// server gives itself. A cancellation is noted on the way.
func (s *Server) prepare(req *jsonrpc.Request, sid string) (fix func(*jsonrpc.Response), answer *jsonrpc.Response) {
	switch {
	case req.IsCall() && req.Method == "initialize":
		version, refusal := mcp.CheckInitialize(req)
		if refusal != nil {
			return nil, refusal
		}
		req.Params = withProtocolVersion(req.Params, sdkVersion(version))
		return func(resp *jsonrpc.Response) { resp.Result = withProtocolVersion(resp.Result, version) }, nil
	case req.IsCall():
		if answer := mcp.Screen(req); answer != nil {
			return nil, answer
		}
		if req.Method == "tools/list" {
			return func(resp *jsonrpc.Response) {
				if ordered, err := s.listing.Apply(resp.Result); err == nil {
					resp.Result = ordered
				}
			}, nil
		}
	default:
		if id, ok := stdio.CancelledID(req); ok {
			s.calls.cancel(sid, id)
		}
	}
	return nil, nil
}

// serveCall hands a request to the SDK and writes its answer re-encoded,
// or, when the client cancelled the request meanwhile, 202 and nothing.
func (s *Server) serveCall(w http.ResponseWriter, r *http.Request, next http.Handler, req *jsonrpc.Request, sid string, fix func(*jsonrpc.Response)) {
	ctx, done := r.Context(), func() bool { return false }
	if sid != "" { // a session's first initialize cannot be cancelled
		ctx, done = s.calls.begin(ctx, sid, req.ID)
	}
	rec := &answerRecorder{w: w, status: http.StatusOK}
	next.ServeHTTP(rec, r.WithContext(ctx))
	if done() && !rec.through {
		w.Header().Del("Content-Type")
		w.WriteHeader(http.StatusAccepted) // cancelled: no answer
		return
	}
	rec.finish(fix)
}

// sessionHeader names the MCP session header.
const sessionHeader = "Mcp-Session-Id"

// sdkVersion is the protocol version the SDK is told for one this server
// speaks: the same when the SDK speaks it, else the newest older one it
// speaks, else its oldest.
func sdkVersion(v string) string {
	known := sdk.SupportedProtocolVersions()
	if slices.Contains(known, v) {
		return v
	}
	best := ""
	for _, k := range known {
		if k < v && k > best {
			best = k
		}
	}
	if best == "" {
		best = slices.Min(known)
	}
	return best
}

// mapVersionHeader gives the SDK, for a protocol version this server
// speaks, the version it was told at initialize. Any other value is left
// for the SDK to refuse.
func mapVersionHeader(r *http.Request) {
	const header = "Mcp-Protocol-Version"
	v := r.Header.Get(header)
	if v != "" && slices.Contains(mcp.ProtocolVersions, v) {
		r.Header.Set(header, sdkVersion(v))
	}
}

// withProtocolVersion returns initialize params naming version instead;
// the params were checked by mcp.CheckInitialize.
func withProtocolVersion(params json.RawMessage, version string) json.RawMessage {
	var p map[string]json.RawMessage
	if json.Unmarshal(params, &p) != nil {
		return params
	}
	p["protocolVersion"], _ = json.Marshal(version)
	out, err := json.Marshal(p)
	if err != nil {
		return params
	}
	return out
}

// writeAnswer writes one JSON-RPC response as this server encodes answers.
func writeAnswer(w http.ResponseWriter, status int, resp *jsonrpc.Response) {
	data, err := stdio.EncodeResponse(resp)
	if err != nil {
		http.Error(w, "the answer could not be encoded", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(data)
}

// writeRejection writes the stdio decoder's refusal of a message.
func writeRejection(w http.ResponseWriter, status int, rej *stdio.Rejection) {
	data, err := json.Marshal(rej)
	if err != nil {
		http.Error(w, "the refusal could not be encoded", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(data)
}

// answerRecorder holds the SDK's JSON answer to one request so that it can
// be re-encoded; anything else (an event stream, a plain-text refusal)
// passes straight through.
type answerRecorder struct {
	w       http.ResponseWriter
	status  int
	wrote   bool
	through bool
	body    bytes.Buffer
}

func (a *answerRecorder) Header() http.Header { return a.w.Header() }

func (a *answerRecorder) WriteHeader(status int) {
	if a.wrote {
		return
	}
	a.wrote, a.status = true, status
	// Any JSON answer is held, whatever its status: a refusal carries the
	// request's id too, which must come back as the client wrote it.
	if a.w.Header().Get("Content-Type") != "application/json" {
		a.through = true
		a.w.WriteHeader(status)
	}
}

func (a *answerRecorder) Write(p []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	if a.through {
		return a.w.Write(p)
	}
	return a.body.Write(p)
}

// Flush passes a flush on to a stream; a held answer is written whole.
func (a *answerRecorder) Flush() {
	if f, ok := a.w.(http.Flusher); ok && a.through {
		f.Flush()
	}
}

// finish writes the held answer, re-encoded; fix, when set, adjusts a
// successful answer first (the negotiated version of an initialize, the
// order of a tools/list).
func (a *answerRecorder) finish(fix func(*jsonrpc.Response)) {
	if a.through {
		return
	}
	data := a.body.Bytes()
	if msg, err := jsonrpc.DecodeMessage(data); err == nil {
		if resp, ok := msg.(*jsonrpc.Response); ok {
			if fix != nil && resp.Error == nil {
				fix(resp)
			}
			if fixed, err := stdio.EncodeResponse(resp); err == nil {
				data = fixed
			}
		}
	}
	a.w.Header().Del("Content-Length")
	a.w.WriteHeader(a.status)
	a.w.Write(data)
}

// callRegistry tracks the calls in flight per MCP session, so that a
// notifications/cancelled arriving on another POST can end the call's POST
// without an answer.
type callRegistry struct {
	mu    sync.Mutex
	calls map[callKey]*liveCall
}

type callKey struct {
	session string
	id      jsonrpc.ID
}

type liveCall struct {
	cancel    context.CancelFunc
	cancelled bool
}

func newCallRegistry() *callRegistry {
	return &callRegistry{calls: map[callKey]*liveCall{}}
}

// begin records a call; done forgets it and reports whether the client
// cancelled it. A second call with the id of one in flight is not
// tracked (the SDK answers it).
func (c *callRegistry) begin(ctx context.Context, session string, id jsonrpc.ID) (context.Context, func() bool) {
	ctx, cancel := context.WithCancel(ctx)
	key := callKey{session, id}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls[key] != nil {
		return ctx, func() bool { cancel(); return false }
	}
	live := &liveCall{cancel: cancel}
	c.calls[key] = live
	return ctx, func() bool {
		cancel()
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.calls[key] == live {
			delete(c.calls, key)
		}
		return live.cancelled
	}
}

// cancel marks the call cancelled and ends its POST's context.
func (c *callRegistry) cancel(session string, id jsonrpc.ID) {
	c.mu.Lock()
	live := c.calls[callKey{session, id}]
	if live != nil {
		live.cancelled = true
	}
	c.mu.Unlock()
	if live != nil {
		live.cancel()
	}
}
