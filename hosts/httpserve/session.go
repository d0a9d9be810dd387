package httpserve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"github.com/agenttool/collab/core/field"
	"net/http"
	"time"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/mcp"
)

// resumeTimeout bounds the resume done when a session is created.
const resumeTimeout = 30 * time.Second

// newSession builds what answers the MCP session that the request r
// initialises: a Process of the session's own (one binding, as one stdio
// process has) over the shared store and toolset, and its dispatcher.
// open, called once the dispatcher accepted the initialize, names the
// session (tying the new id to the client that made it), resumes the
// client instance's session if it has one, and returns the id.
func (s *Server) newSession(r *http.Request, ls *liveSession) (disp *mcp.Dispatcher, open func() string) {
	principal := principalOf(r.Context())
	instance := r.Header.Get(InstanceHeader)
	if !field.IsID(instance) {
		instance = ""
	}
	// An HTTP client's sessions are held by no process of its own that this
	// server could watch: their host record names the client and its token.
	host := store.SessionHost{Kind: store.HostHTTP, Principal: principal}
	cfg := mcp.ProcessConfig{Store: s.cfg.Store, Principal: principal, SearchIndex: s.searchIndex, Tools: s.tools,
		Stopping: s.stopping, Host: &host}
	cfg.OnBind = func(id string) {
		s.sessions.setBound(ls, true)
		if instance == "" {
			return
		}
		if err := s.resume.Record(principal, instance, id); err != nil {
			s.log.Warn("resume index not updated", "client", principal, "error", err)
		}
	}
	cfg.OnUnbind = func(id string) {
		s.sessions.setBound(ls, false)
		if instance != "" {
			s.resume.Forget(principal, instance, id)
		}
	}
	proc := mcp.NewProcess(cfg)
	disp = proc.Dispatcher(s.cfg.Version)
	return disp, func() string {
		id := newSessionID()
		s.sessions.name(ls, id, disp)
		if instance != "" {
			s.resumeInstance(r.Context(), proc, principal, instance)
		}
		s.log.Info("session", "client", principal, "resumable", instance != "")
		return id
	}
}

// resumeInstance binds the session the instance last held, if it can; a
// session that ended or cannot be resumed is forgotten and the client
// starts unbound.
func (s *Server) resumeInstance(ctx context.Context, proc *mcp.Process, principal, instance string) {
	sid := s.resume.Lookup(principal, instance)
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
		s.resume.Forget(principal, instance, sid)
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

// slotKey carries a request's *sessionSlot.
type slotKey struct{}

// sessionSlot holds the place in the session caps that a request naming
// no session reserved (guard), for the session it may initialise.
type sessionSlot struct {
	session *liveSession
}
