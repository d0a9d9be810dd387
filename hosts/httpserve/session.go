package httpserve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"github.com/agenttool/collab/core/field"
	"net/http"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/hosts/mcp"
)

// resumeTimeout bounds the resume done when a session is created.
const resumeTimeout = 30 * time.Second

// sessionServer is the SDK's getServer callback, called once per new MCP
// session: it builds a Process of the session's own (one binding, as one
// stdio process has), resumes the client instance's session if it has
// one, and ties the new MCP session id to the client that made it.
//
// The SDK also calls getServer on every request, only to read the
// protocol versions, and twice for the request that creates a session: a
// request naming a session gets the shared versions-only server, and the
// per-request slot makes the second call return the first call's server.
func (s *Server) sessionServer(r *http.Request) *sdk.Server {
	if r.Header.Get("Mcp-Session-Id") != "" || r.Method != http.MethodPost {
		return s.versions
	}
	slot, _ := r.Context().Value(slotKey{}).(*serverSlot)
	if slot == nil || slot.session == nil {
		return s.versions
	}
	if slot.server == nil {
		slot.server = s.newSessionServer(r, slot.session)
	}
	return slot.server
}

// slotKey carries a request's *serverSlot.
type slotKey struct{}

// serverSlot holds the server built for one request, and the place in the
// session caps that request reserved.
type serverSlot struct {
	server  *sdk.Server
	session *liveSession
}

func (s *Server) newSessionServer(r *http.Request, ls *liveSession) *sdk.Server {
	principal := principalOf(r.Context())
	instance := r.Header.Get(InstanceHeader)
	if !field.IsID(instance) {
		instance = ""
	}
	cfg := mcp.ProcessConfig{Store: s.cfg.Store, Principal: principal, SearchIndex: s.searchIndex, Tools: s.tools,
		Stopping: s.stopping}
	cfg.OnBind = func(id string) {
		s.sessions.setBound(ls, true)
		if instance == "" {
			return
		}
		if err := s.resume.record(principal, instance, id); err != nil {
			s.log.Warn("resume index not updated", "client", principal, "error", err)
		}
	}
	cfg.OnUnbind = func(id string) {
		s.sessions.setBound(ls, false)
		if instance != "" {
			s.resume.forget(principal, instance, id)
		}
	}
	proc := mcp.NewProcess(cfg)
	id := newSessionID()
	srv := mcp.NewSessionServer(s.cfg.Version, proc, id)
	s.sessions.name(ls, id, srv)
	if instance != "" {
		s.resumeInstance(r.Context(), proc, principal, instance)
	}
	s.log.Info("session", "client", principal, "resumable", instance != "")
	return srv
}

// resumeInstance binds the session the instance last held, if it can; a
// session that ended or cannot be resumed is forgotten and the client
// starts unbound.
func (s *Server) resumeInstance(ctx context.Context, proc *mcp.Process, principal, instance string) {
	sid := s.resume.lookup(principal, instance)
	if sid == "" {
		return
	}
	path, err := credfile.PathFor(s.cfg.Store.Path(), sid)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), resumeTimeout)
		defer cancel()
		err = proc.ResumeFile(ctx, path, false)
	}
	if err != nil {
		s.log.Info("resume skipped", "client", principal, "reason", refusalCode(err))
		s.resume.forget(principal, instance, sid)
	}
}

// refusalCode names an error without its text (which may hold a path).
func refusalCode(err error) string {
	if ce, ok := collaberr.As(err); ok {
		return ce.Code
	}
	return "error"
}

func newSessionID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return hex.EncodeToString(b)
}
