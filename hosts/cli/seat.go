package cli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
)

// A personSeat is a person's own credential-bound session on one
// workspace. It is an ordinary collab session held by a core/seat.Seat,
// as an agent's MCP process holds one: the person's commands meet the same
// store rules, generation fencing and journal as any agent's calls.
type personSeat struct {
	seat     *seat.Seat
	st       *store.Store
	ws       store.Workspace
	credPath string
}

// seatPath is where the person's credential for database db and workspace
// ws lives (place.PersonCredential), a 0600 file in a 0700 directory.
func seatPath(db, ws string) (string, error) {
	path, err := place.PersonCredential(place.OS(), db, ws)
	if errors.Is(err, place.ErrNoHome) {
		return "", &problem{what: "cannot find your home directory for the session credential", fix: "set " + place.EnvXDGState, code: ExitUsage}
	}
	return path, err
}

// defaultActor names the person: --as, else $COLLAB_PERSON, else the login
// (seat.PersonActor, which the web view's --act uses too).
func defaultActor(as string) string {
	return seat.PersonActor(as, place.OS())
}

// takeSeat binds the person's session on the selected workspace, or
// starts one (and keeps its credential in the state directory) on first
// use: seat.TakePerson, the seat every face a person acts from takes.
// Binding does not resume: the session is held at the generation its file
// records, so a command appends only the events of its own write (a
// read-only or refused command appends none). Only when another process
// has resumed the session from a copy of the file is it resumed here,
// which the journal records as any resume.
func takeSeat(ctx context.Context, c *common, actor string) (*personSeat, error) {
	v, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	ws, db := v.ws, v.path
	v.st.Close()
	credPath, err := seatPath(db, ws.ID)
	if err != nil {
		return nil, err
	}
	_, statErr := os.Stat(credPath)
	first := errors.Is(statErr, os.ErrNotExist)
	if first {
		if _, err := checked("collab_session_start", map[string]string{"root_path": ws.RootPath, "actor": actor}); err != nil {
			return nil, err
		}
	}
	st, err := backend.Open(ctx, backend.Options{Path: db})
	if err != nil {
		return nil, fmt.Errorf("open %s to act: %w", place.Shown(db), err)
	}
	bound, err := seat.TakePerson(ctx, st, credPath, ws, actor)
	if err != nil {
		st.Close()
		scrub := func(text string) string { return seat.ScrubFor(db, "", text) }
		if first {
			return nil, refusal(err, scrub)
		}
		return nil, &problem{what: "your collab session could not be resumed: " + scrub(err.Error()),
			fix: "if it has ended, run `collab logout` to forget it; your next action starts a new one", code: ExitRefused}
	}
	s := &personSeat{st: st, ws: ws, credPath: credPath, seat: bound}
	s.describe(ctx)
	return s, nil
}

// describe records the session's host as a person at the terminal, unless
// that is already its record (one read, and a write only when a first
// command or an agent that resumed the person's session changed it).
func (s *personSeat) describe(ctx context.Context) {
	hosts, err := s.st.SessionHosts(ctx, s.ws.ID)
	if h, ok := hosts[s.seat.SessionID()]; err == nil && ok && h.Kind == store.HostPersonCLI {
		return
	}
	s.seat.Describe(ctx, store.SessionHost{Kind: store.HostPersonCLI, Client: "collab"})
}

// credential is the person's session credential for acting on the seat's
// workspace, refused as any session's would be (another workspace, a
// pending cursor recovery).
func (s *personSeat) credential() (store.Credential, error) {
	if err := s.seat.RequireWorkspace(s.ws.ID); err != nil {
		return store.Credential{}, s.refused(err)
	}
	cred, err := s.seat.Credential(false, "call collab_session_start first")
	return cred, s.refused(err)
}

// caller is the person's session as the actor of a write.
func (s *personSeat) caller() (store.Actor, error) {
	cred, err := s.credential()
	return store.SessionActor(cred), err
}

// refused turns a store refusal into a problem (nil stays nil).
func (s *personSeat) refused(err error) error {
	if err == nil {
		return nil
	}
	return refusal(err, s.seat.Scrub)
}

func (s *personSeat) close() { s.st.Close() }

// refusal turns an error of the store into a problem with a fix where one
// is known; its message is scrubbed of secrets, and an error that is not a
// refusal is an internal_error, as an MCP caller would be told.
func refusal(err error, scrub func(string) string) error {
	code, message := string(collaberr.InternalError), err.Error()
	if ce, ok := collaberr.As(err); ok {
		code, message = ce.Code, ce.Message
	}
	return refusalProblem(code, scrub(message))
}

// refusalProblem is the problem a refusal with code and message makes.
func refusalProblem(code, message string) error {
	fix, ok := fixes[code]
	if !ok {
		fix = "see docs/cli.md and the refusal code " + code
	}
	return &problem{what: "refused (" + code + "): " + message, fix: fix, code: ExitRefused, refusal: code}
}

// fixes says what to do about the refusals a person meets most.
var fixes = map[string]string{
	"self_review_forbidden":   "a different session must review work your own session reported",
	"task_not_pending_review": "only a completion awaiting review can be reviewed; see `collab show TASK`",
	"version_conflict":        "someone changed it first; look again with `collab show TASK` and retry",
	"task_not_found":          "list tasks with `collab tasks`",
	"session_auth_failed":     "another process resumed your session; run the command again",
	"handoff_resolved":        "the handoff was already answered; see `collab tail --kind handoff`",
	"handoff_expired":         "the offer lapsed; ask the holder to offer again",
	"session_not_found":       "name a live session by its label or short id; `collab sessions` lists them",
}
