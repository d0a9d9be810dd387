package httpserve

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/agenttool/collab/hosts/mcp/stdio"
)

// The JSON-RPC layer of the HTTP face: one POST carries one message, and
// one request is answered with one JSON body by the session's
// mcp.Dispatcher, the same that answers a stdio client. So one client sees
// one server whichever transport it uses:
//   - the envelope is checked by the stdio decoder (stdio.Decode): the
//     same refusals, and ids held as the client wrote them (stdio.ClientID),
//     answered with the client's text again (stdio.EncodeResponse);
//   - a message other than initialize without an Mcp-Session-Id is 400;
//     an initialize without one creates the session (its answer carries
//     the new Mcp-Session-Id), and one that the dispatcher refuses creates
//     none; an initialize within a session is refused (-32603);
//   - a notification or a response is 202 with an empty body; a request
//     the client cancels (notifications/cancelled, on another POST) gets
//     no answer either: its POST ends 202 with an empty body.

// servePost answers one POST to /mcp.
func (s *Server) servePost(w http.ResponseWriter, r *http.Request) {
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
	s.serveMessage(w, r, msg)
}

// serveMessage answers one decoded message.
func (s *Server) serveMessage(w http.ResponseWriter, r *http.Request, msg jsonrpc.Message) {
	sid := r.Header.Get(sessionHeader)
	req, isRequest := msg.(*jsonrpc.Request)
	call := isRequest && req.IsCall()
	if sid == "" && !(call && req.Method == "initialize") {
		var id jsonrpc.ID
		if isRequest {
			id = req.ID
		}
		writeAnswer(w, http.StatusBadRequest, &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest,
			Message: "Bad Request: send the Mcp-Session-Id header that the initialize answer carried, or initialize first"}})
		return
	}
	if !postHeadersOK(w, r) {
		return
	}
	if sid == "" {
		s.initialize(w, r, req)
		return
	}
	ls := s.sessions.lookup(sid)
	if ls == nil {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	if !call {
		if isRequest {
			s.notice(ls, sid, req)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if req.Method == "initialize" {
		// An HTTP session is initialised once, by the request that
		// created it (a stdio client may initialise again).
		w.Header().Set(sessionHeader, sid)
		writeAnswer(w, http.StatusOK, &jsonrpc.Response{ID: req.ID,
			Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: `duplicate "initialize" received`}})
		return
	}
	ctx, done := s.calls.begin(r.Context(), sid, req.ID)
	resp := ls.disp.Answer(ctx, req)
	if done() {
		w.WriteHeader(http.StatusAccepted) // cancelled: no answer
		return
	}
	writeAnswer(w, http.StatusOK, resp)
}

// notice takes a client's notification for session ls.
func (s *Server) notice(ls *liveSession, sid string, req *jsonrpc.Request) {
	if id, ok := stdio.CancelledID(req); ok {
		s.calls.cancel(sid, id)
		return
	}
	ls.disp.Notice(req)
}

// initialize answers an initialize that names no session, with the place
// in the session caps the guard reserved for it: the session exists once
// the dispatcher accepted the initialize.
func (s *Server) initialize(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request) {
	slot, _ := r.Context().Value(slotKey{}).(*sessionSlot)
	if slot == nil || slot.session == nil {
		http.Error(w, "no session could be reserved", http.StatusInternalServerError)
		return
	}
	disp, open := s.newSession(r, slot.session)
	resp := disp.Answer(r.Context(), req)
	if resp.Error == nil { // a refused one opens nothing: settle gives its place back
		w.Header().Set(sessionHeader, open())
	}
	writeAnswer(w, http.StatusOK, resp)
}

// sessionHeader names the MCP session header.
const sessionHeader = "Mcp-Session-Id"

// writeAnswer writes one JSON-RPC response as this server encodes answers.
func writeAnswer(w http.ResponseWriter, status int, resp *jsonrpc.Response) {
	data, err := stdio.EncodeResponse(resp)
	if err != nil {
		http.Error(w, "the answer could not be encoded", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache, no-transform")
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
// tracked (it cannot be cancelled apart from the first).
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
