package httpserve

import (
	"context"
	"net/http"
	"strings"
)

// principalKey carries the authenticated client's name in a request's
// context.
type principalKey struct{}

func principalOf(ctx context.Context) string {
	p, _ := ctx.Value(principalKey{}).(string)
	return p
}

// guard admits a request to the MCP handler, or answers it: 403 for a
// foreign Host or Origin, 413 for a body over the limit, 401 without a
// valid token, 403 for another client's MCP session, 429 when the client
// already has its maximum of requests in flight or a new session would
// pass a session cap.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.cfg.Hosts.Check(r); err != nil {
			s.refuse(w, r, http.StatusForbidden, err.Error())
			return
		}
		if r.ContentLength > s.cfg.MaxBodyBytes {
			s.refuse(w, r, http.StatusRequestEntityTooLarge, "request body too large")
			return
		}
		principal, ok := s.authenticate(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="agenttool-collab"`)
			s.refuse(w, r, http.StatusUnauthorized, "a valid bearer token is required")
			return
		}
		id := r.Header.Get("Mcp-Session-Id")
		if id != "" && !s.ownedBy(id, principal) {
			s.refuse(w, r, http.StatusForbidden, "this MCP session belongs to another client")
			return
		}
		slot := &sessionSlot{}
		ctx := context.WithValue(r.Context(), principalKey{}, principal)
		ctx = context.WithValue(ctx, slotKey{}, slot)
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		if r.Method == http.MethodGet {
			var cancel context.CancelFunc
			ctx, cancel = s.streamContext(ctx, r, principal)
			defer cancel()
		} else {
			release, ok := s.acquire(principal)
			if !ok {
				w.Header().Set("Retry-After", "1")
				s.refuse(w, r, http.StatusTooManyRequests, "too many requests in flight for this client")
				return
			}
			defer release()
			switch {
			case id != "":
				end := s.sessions.begin(id)
				defer func() { end(r.Method == http.MethodDelete) }()
			case r.Method == http.MethodPost:
				ls, full := s.sessions.reserve(principal)
				if full != nil {
					s.refuseSession(w, r, full)
					return
				}
				slot.session = ls
				defer s.sessions.settle(ls)
			}
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// refuse answers with status and a one-line reason, and logs it without
// any header value.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, reason string) {
	s.log.Info("refused", "status", status, "reason", reason, "method", r.Method, "remote", r.RemoteAddr)
	http.Error(w, reason, status)
}

// authenticate returns the client named by the request's bearer token.
func (s *Server) authenticate(r *http.Request) (string, bool) {
	if s.cfg.Tokens == nil {
		return anonymous, true
	}
	auth := r.Header.Get("Authorization")
	scheme, token, found := strings.Cut(auth, " ")
	if !found || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return s.cfg.Tokens.Check(strings.TrimSpace(token))
}

// ownedBy reports whether the MCP session id may be used by principal; an
// id this server never issued, or one that ended, is left for the
// transport to answer (404).
func (s *Server) ownedBy(id, principal string) bool {
	owner, known := s.sessions.owner(id)
	return !known || owner == principal
}

// acquire takes one of principal's request slots without waiting.
func (s *Server) acquire(principal string) (func(), bool) {
	s.mu.Lock()
	slots, ok := s.inflight[principal]
	if !ok {
		slots = make(chan struct{}, s.cfg.ClientConcurrency)
		s.inflight[principal] = slots
	}
	s.mu.Unlock()
	select {
	case slots <- struct{}{}:
		return func() { <-slots }, true
	default:
		return nil, false
	}
}
