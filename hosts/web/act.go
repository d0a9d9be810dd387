package web

import (
	"context"
	"crypto/rand"
	"net/http"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
)

// Acting lets a person act from the page (web --act). The person acts
// through their own credential-bound session, the one the people's
// commands use: the credential kept at Credential(workspace) is resumed
// with core/seat.TakePerson, so every action meets the same store rules,
// bounds and generation fencing as an agent's call.
type Acting struct {
	// Store is the database opened for writing; the pages still read
	// through Options.Store.
	Store *store.Store
	// Credential is where the person's session credential for a workspace
	// is kept (place.PersonCredential). Its path never reaches a page.
	Credential func(workspaceID string) (string, error)
	// Actor names the person when their session starts.
	Actor string
	// Peer, when set, must admit the request's connection before a form
	// is acted on: on loopback, SameUser, so that another local user who
	// can reach the port cannot act as the person.
	Peer func(*http.Request) error
}

// acts is the acting state of a Server: the key that signs its page
// tokens and the person's seats, one per workspace, held between actions
// so that only the first action of a workspace resumes the session.
type acts struct {
	opts  Acting
	key   []byte
	mu    sync.Mutex // held across one action: a person's actions run one at a time
	seats map[string]*seat.Seat
}

func newActs(opts Acting) *acts {
	key := make([]byte, 32)
	rand.Read(key)
	return &acts{opts: opts, key: key, seats: map[string]*seat.Seat{}}
}

// sessionID is the person's session on ws, "" before their first action
// there. It reads the credential file only for the id, and never writes.
func (a *acts) sessionID(ws string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s := a.seats[ws]; s != nil {
		return s.SessionID()
	}
	path, err := a.opts.Credential(ws)
	if err != nil {
		return ""
	}
	c, err := credfile.Read(path)
	if err != nil {
		return ""
	}
	return c.SessionID
}

// with runs do as the person's session on ws. When the session was
// resumed elsewhere since (the people's commands resume it on every
// action, fencing this holder) do is refused with session_auth_failed
// before it writes, so the seat is taken again and do runs once more.
func (a *acts) with(ctx context.Context, ws store.Workspace, do func(store.Credential) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	for attempt := 0; ; attempt++ {
		s, err := a.seat(ctx, ws)
		if err != nil {
			return err
		}
		cred, err := s.Credential(false, "the person's session is not bound")
		if err != nil {
			return a.scrub(ws.ID, s, err)
		}
		err = do(cred)
		if ce, ok := collaberr.As(err); ok && ce.Code == string(collaberr.SessionAuthFailed) && attempt == 0 {
			delete(a.seats, ws.ID)
			continue
		}
		return a.scrub(ws.ID, s, err)
	}
}

// seat is the held seat for ws, taken on first use.
func (a *acts) seat(ctx context.Context, ws store.Workspace) (*seat.Seat, error) {
	if s := a.seats[ws.ID]; s != nil {
		return s, nil
	}
	path, err := a.opts.Credential(ws.ID)
	if err != nil {
		return nil, actionError{what: "cannot tell where your session credential is kept", fix: "set XDG_STATE_HOME or HOME for the web command"}
	}
	s, err := seat.TakePerson(ctx, a.opts.Store, path, ws, a.opts.Actor)
	if err != nil {
		return nil, a.scrub(ws.ID, nil, err)
	}
	a.seats[ws.ID] = s
	return s, nil
}

// scrub keeps the session token and every credential location out of an
// error about to be shown on a page (nil stays nil).
func (a *acts) scrub(ws string, s *seat.Seat, err error) error {
	if err == nil {
		return nil
	}
	if _, ok := err.(actionError); ok {
		return err
	}
	code, msg := string(collaberr.InternalError), err.Error()
	if ce, ok := collaberr.As(err); ok {
		code, msg = ce.Code, ce.Message
	}
	if s != nil {
		msg = s.Scrub(msg)
	} else {
		msg = seat.ScrubFor(a.opts.Store.Path(), "", msg)
	}
	if path, err := a.opts.Credential(ws); err == nil {
		msg = strings.ReplaceAll(msg, filepath.Dir(path), "<state-dir>")
	}
	return actionError{what: "refused (" + code + "): " + msg, fix: fixFor(code), code: code}
}

// actionError is an action the page refused or the store refused: what
// happened and what to do; nothing was written.
type actionError struct {
	what, fix, code string
}

func (e actionError) Error() string { return e.what }

// fixFor says what a person can do about the refusals met most.
func fixFor(code string) string {
	switch code {
	case "self_review_forbidden":
		return "a different session must review work your own session reported"
	case "task_not_pending_review":
		return "only a completion awaiting review can be reviewed; the board shows its state now"
	case "version_conflict":
		return "someone changed it first; the page now shows the new state, so look again and retry"
	case "handoff_resolved":
		return "the offer was already answered"
	case "handoff_expired":
		return "the offer lapsed; ask the holder to offer again"
	case "task_exists":
		return "pick another task id, or leave it empty for a generated one"
	case "session_auth_failed":
		return "another process resumed your session; send the form again"
	case "idempotency_conflict":
		return "this form was already sent with other values; reload the page and fill it again"
	}
	return "see the refusal code in docs/errors.md"
}
