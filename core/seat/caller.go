package seat

import (
	"strings"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// RequireWorkspace refuses a bound seat acting on another workspace; an
// unbound seat may act on any.
func (s *Seat) RequireWorkspace(workspaceID string) error {
	if s.bound != nil && s.bound.workspaceID != workspaceID {
		return collaberr.New(collaberr.SessionWorkspaceMismatch, "This process is bound to a session of another workspace")
	}
	return nil
}

// Credential returns the bound session's credential for a session-only
// operation. An unbound seat is refused with advice, which must name only
// what that caller can do. While a host-authorised cursor recovery is
// pending, only the reset itself (allowRecovery) may proceed.
func (s *Seat) Credential(allowRecovery bool, advice string) (store.Credential, error) {
	if s.bound == nil {
		return store.Credential{}, collaberr.New(collaberr.SessionNotBound, "No session is bound to this process; "+advice)
	}
	if r := s.bound.recovery; r != nil && !allowRecovery {
		return store.Credential{}, collaberr.New(collaberr.CursorRecoveryRequired,
			"The host resumed this session in recovery mode; reset the cursor to an exact journal anchor with collab_cursor_reset first").
			With("required", true).With("cause", r.Cause).With("persisted_cursor", r.PersistedCursor).
			With("host_cursor", r.HostCursor).With("expected_cursor_version", r.ExpectedCursorVersion)
	}
	return s.bound.credential(), nil
}

// SessionCaller is the bound session acting on workspaceID: refused for
// another workspace, for an unbound seat (with advice) and during a
// pending cursor recovery.
func (s *Seat) SessionCaller(workspaceID, advice string) (store.Actor, error) {
	if err := s.RequireWorkspace(workspaceID); err != nil {
		return store.Actor{}, err
	}
	cred, err := s.Credential(false, advice)
	if err != nil {
		return store.Actor{}, err
	}
	return store.SessionActor(cred), nil
}

// Labelled returns actor as recorded for the seat's principal: unchanged
// without one, else prefixed "principal/" (once).
func (s *Seat) Labelled(actor string) string {
	if s.principal == "" || strings.HasPrefix(actor, s.principal+"/") {
		return actor
	}
	return s.principal + "/" + actor
}
