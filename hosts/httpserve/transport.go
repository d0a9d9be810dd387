package httpserve

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strings"

	"github.com/agenttool/collab/hosts/mcp"
)

// The Streamable HTTP transport of /mcp, as this server uses it: a POST
// carries one JSON-RPC message and a request is answered with one JSON
// body (rpc.go); a GET opens the session's event stream, on which this
// server never has anything to send (no tool reports progress, and the
// channel is a stdio feature), so it only stays open until the session,
// the server or the client's token ends it; a DELETE ends the session.

// protocolHeader names the header carrying the negotiated protocol version.
const protocolHeader = "Mcp-Protocol-Version"

// serveMCP answers one request to /mcp that the guard admitted.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	if v := r.Header.Get(protocolHeader); v != "" && !slices.Contains(mcp.ProtocolVersions, v) {
		http.Error(w, fmt.Sprintf("Bad Request: Unsupported protocol version (supported versions: %s)",
			strings.Join(mcp.ProtocolVersions, ",")), http.StatusBadRequest)
		return
	}
	switch r.Method {
	case http.MethodPost:
		s.servePost(w, r)
	case http.MethodGet:
		s.serveStream(w, r)
	case http.MethodDelete:
		s.serveDelete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
	}
}

// postHeadersOK checks the headers a POST must carry, or answers it: a
// JSON body (415), and an Accept naming both JSON and an event stream
// (400), as the transport specifies.
func postHeadersOK(w http.ResponseWriter, r *http.Request) bool {
	if media, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); media != "application/json" {
		http.Error(w, "Content-Type must be 'application/json'", http.StatusUnsupportedMediaType)
		return false
	}
	if json, stream := accepts(r.Header.Values("Accept")); !json || !stream {
		http.Error(w, "Accept must contain both 'application/json' and 'text/event-stream'", http.StatusBadRequest)
		return false
	}
	return true
}

// accepts reports whether Accept values admit a JSON answer and an event
// stream; media parameters are ignored, and wildcards admit what they cover.
func accepts(values []string) (json, stream bool) {
	for _, value := range values {
		for _, part := range strings.Split(value, ",") {
			media, _, _ := strings.Cut(part, ";")
			switch strings.ToLower(strings.TrimSpace(media)) {
			case "application/json", "application/*":
				json = true
			case "text/event-stream", "text/*":
				stream = true
			case "*/*":
				json, stream = true, true
			}
		}
	}
	return json, stream
}

// serveStream holds a session's GET event stream open until the session
// ends, the server drains, or the request's context ends (the client
// left, or its token stopped admitting it: see streamContext).
func (s *Server) serveStream(w http.ResponseWriter, r *http.Request) {
	if _, stream := accepts(r.Header.Values("Accept")); !stream {
		http.Error(w, "Accept must contain 'text/event-stream' for GET requests", http.StatusBadRequest)
		return
	}
	sid := r.Header.Get(sessionHeader)
	if sid == "" {
		http.Error(w, "Bad Request: GET requires an Mcp-Session-Id header", http.StatusBadRequest)
		return
	}
	if len(r.Header.Values("Last-Event-ID")) > 0 {
		http.Error(w, "stream replay unsupported", http.StatusBadRequest)
		return
	}
	ls := s.sessions.lookup(sid)
	if ls == nil {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	w.Header().Set("Cache-Control", "no-cache, no-transform")
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Connection", "keep-alive")
	w.WriteHeader(http.StatusOK)
	// A comment line, so that the headers leave at once even through a
	// proxy that holds them until the first bytes of the body.
	io.WriteString(w, ": ok\n\n")
	_ = http.NewResponseController(w).Flush()
	select {
	case <-r.Context().Done():
	case <-ls.ended:
	}
}

// serveDelete ends a session: 204, and every later request naming it is
// answered 404.
func (s *Server) serveDelete(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get(sessionHeader)
	if sid == "" {
		http.Error(w, "Bad Request: DELETE requires an Mcp-Session-Id header", http.StatusBadRequest)
		return
	}
	ls := s.sessions.lookup(sid)
	if ls == nil {
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	ls.end()
	w.WriteHeader(http.StatusNoContent)
}
