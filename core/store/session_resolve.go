package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/collaberr"
)

// The people's surface lets a person name a session the way they think of
// it: by the label its actor bears ("ben"), by the short id the views print
// (session_1a2b3c4d), or by its full id. ResolveSession turns what was typed
// into one session, or refuses with the sessions it could have meant. The
// reference's tools keep taking ids; this is a read for people's faces.

// shortIDLength is how much of a session id the views print and a person
// can type back: "session_" and the first eight hex digits of its UUID.
const shortIDLength = len("session_") + 8

// minPrefixDigits is the fewest hex digits of a UUID a typed prefix must
// give, so that a short word is never taken for an id.
const minPrefixDigits = 4

// ShortSessionID is the short form of a session id that views print and
// ResolveSession accepts back: "session_" and the first eight hex digits.
// An id of another shape is returned whole.
func ShortSessionID(id string) string {
	if strings.HasPrefix(id, "session_") && len(id) > shortIDLength {
		return id[:shortIDLength]
	}
	return id
}

// SessionCandidate is one session a typed name could have meant, as a
// refusal lists it so the person can pick one.
type SessionCandidate struct {
	ID         string        `json:"id"`
	ShortID    string        `json:"short_id"`
	Actor      string        `json:"actor"`
	Status     SessionStatus `json:"status"`
	LastSeenAt string        `json:"last_seen_at"`
}

func candidateOf(s CoordinationSession) SessionCandidate {
	return SessionCandidate{ID: s.ID, ShortID: ShortSessionID(s.ID), Actor: s.Actor, Status: s.Status, LastSeenAt: s.LastSeenAt}
}

// String renders the candidate on one line: label, state, last seen and
// short id.
func (c SessionCandidate) String() string {
	state := ""
	if c.Status != SessionActive {
		state = string(c.Status) + ", "
	}
	return fmt.Sprintf("%s (%slast seen %s, %s)", c.Actor, state, c.LastSeenAt, c.ShortID)
}

// UnresolvedSession is the refusal of a typed session name that names no
// single session. It unwraps to a session_not_found refusal (a registered
// code) whose message lists the candidates, so every face reports it as any
// refusal; a people's face can read the candidates themselves with
// errors.As.
type UnresolvedSession struct {
	// Typed is what the person typed.
	Typed string
	// Ambiguous is true when several sessions bear the name; otherwise
	// none does.
	Ambiguous bool
	// Candidates are the sessions the person can pick from: those bearing
	// the name when it is ambiguous; else the ended sessions bearing it,
	// then every live session of the workspace. Live ones come first, most
	// recently seen first.
	Candidates []SessionCandidate
}

// Error says what was typed and lists the candidates.
func (e *UnresolvedSession) Error() string { return e.message() }

// Unwrap is the refusal as a registered code, for faces that render
// refusals by code.
func (e *UnresolvedSession) Unwrap() error {
	return collaberr.New(collaberr.SessionNotFound, e.message()).With("typed", e.Typed).With("candidates", e.Candidates)
}

func (e *UnresolvedSession) message() string {
	var list []string
	for _, c := range e.Candidates {
		list = append(list, c.String())
	}
	switch {
	case e.Ambiguous:
		return fmt.Sprintf("%q names %d sessions: %s", e.Typed, len(e.Candidates), strings.Join(list, "; "))
	case len(list) == 0:
		return fmt.Sprintf("no session is labelled or identified by %q, and the workspace has no live session", e.Typed)
	}
	return fmt.Sprintf("no live session is labelled or identified by %q; sessions: %s", e.Typed, strings.Join(list, "; "))
}

// Hint says what to type instead, naming a candidate's short id when there
// is one.
func (e *UnresolvedSession) Hint() string {
	for _, c := range e.Candidates {
		if c.Status == SessionActive {
			return "type a label that one live session bears, or a short id such as " + c.ShortID
		}
	}
	if len(e.Candidates) > 0 {
		return "type a short id such as " + e.Candidates[0].ShortID
	}
	return "no session can be named until one has started in this workspace"
}

// ResolveSession turns what a person typed into one session of the
// workspace, ended ones included (the action that uses it decides whether
// an ended session will do). See ChooseSession for the rules. It only
// reads; a refusal is an *UnresolvedSession.
func (s *Store) ResolveSession(ctx context.Context, workspaceID, typed string) (CoordinationSession, error) {
	list, err := s.SessionsBySeen(ctx, workspaceID)
	if err != nil {
		return CoordinationSession{}, err
	}
	return ChooseSession(list, typed)
}

// SessionsBySeen lists every credential-bound session of a workspace,
// ended ones included: live ones first, then by last seen newest first,
// then by id. It only reads, so it is safe on a store opened read-only.
func (s *Store) SessionsBySeen(ctx context.Context, workspaceID string) ([]CoordinationSession, error) {
	var list []CoordinationSession
	err := s.readTx(ctx, func(tx Tx) error {
		var err error
		list, err = sessionsBySeen(ctx, tx, workspaceID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list the sessions of %s: %w", workspaceID, err)
	}
	return list, nil
}

// ChooseSession picks the one session of list that typed names, trying in
// turn: an exact session id (any status); the actor label of live (active)
// sessions, exactly and then ignoring case; a prefix of a session id, with
// or without "session_", of at least four hex digits (any status). The
// first rule that matches decides: one match is the answer, several are
// refused as ambiguous with those sessions as the candidates. Nothing
// matching is refused with the ended sessions bearing the label and every
// live session as candidates. list is in the order candidates are listed
// (ResolveSession passes live ones first, most recently seen first).
func ChooseSession(list []CoordinationSession, typed string) (CoordinationSession, error) {
	return ChooseLiveSession(list, typed, func(s CoordinationSession) bool { return s.Status == SessionActive })
}

// ChooseLiveSession is ChooseSession with the caller's reading of which
// sessions are live, for a people's face that judges a session whose host
// is gone as ended although its row still says active (core/liveness):
// live replaces "the status is active" in the label rules and in the
// choice of candidates.
func ChooseLiveSession(list []CoordinationSession, typed string, live func(CoordinationSession) bool) (CoordinationSession, error) {
	typed = strings.TrimSpace(typed)
	rules := []func(CoordinationSession) bool{
		func(s CoordinationSession) bool { return s.ID == typed },
		func(s CoordinationSession) bool { return live(s) && s.Actor == typed },
		func(s CoordinationSession) bool {
			return live(s) && strings.EqualFold(s.Actor, typed)
		},
		idPrefix(typed),
	}
	for _, rule := range rules {
		var found []CoordinationSession
		for _, s := range list {
			if rule(s) {
				found = append(found, s)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1:
			return CoordinationSession{}, &UnresolvedSession{Typed: typed, Ambiguous: true, Candidates: candidatesOf(found)}
		}
	}
	var pick []CoordinationSession
	for _, s := range list {
		if !live(s) && strings.EqualFold(s.Actor, typed) {
			pick = append(pick, s)
		}
	}
	for _, s := range list {
		if live(s) {
			pick = append(pick, s)
		}
	}
	return CoordinationSession{}, &UnresolvedSession{Typed: typed, Candidates: candidatesOf(pick)}
}

// idPrefix matches sessions whose id starts with typed, read as a session
// id or as the hex digits after "session_"; it matches nothing when typed
// gives fewer than minPrefixDigits digits or is not hex.
func idPrefix(typed string) func(CoordinationSession) bool {
	digits := strings.TrimPrefix(strings.ToLower(typed), "session_")
	if len(strings.ReplaceAll(digits, "-", "")) < minPrefixDigits || strings.Trim(digits, "0123456789abcdef-") != "" {
		return func(CoordinationSession) bool { return false }
	}
	return func(s CoordinationSession) bool { return strings.HasPrefix(s.ID, "session_"+digits) }
}

func candidatesOf(list []CoordinationSession) []SessionCandidate {
	out := make([]SessionCandidate, len(list))
	for i, s := range list {
		out[i] = candidateOf(s)
	}
	return out
}
