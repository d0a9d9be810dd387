package seat

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/store"
)

// Resume binds the session of the credential file at path: the file is
// validated, the session moves to a new generation (fencing any other
// holder) and the same file is rewritten with it. With allowRecovery, a
// cursor disagreement binds the session in recovery mode instead of being
// refused. A seat already bound is refused with session_already_bound.
func (s *Seat) Resume(ctx context.Context, path string, allowRecovery bool) error {
	if s.bound != nil {
		return collaberr.New(collaberr.SessionAlreadyBound, "This process already has a bound session; one process holds one session")
	}
	cred, err := credfile.Read(path)
	if err != nil {
		return err
	}
	resumed, err := s.store.ResumeSession(ctx, cred, allowRecovery)
	if err != nil {
		return err
	}
	if err := credfile.Write(path, resumed.Credential, true); err != nil {
		return err
	}
	credfile.SweepTemps(path)
	s.bound = &binding{
		sessionID: cred.SessionID, token: cred.Token, generation: resumed.Credential.Generation,
		workspaceID: resumed.Session.WorkspaceID, credentialPath: path,
		recovery: resumed.Recovery, lastCursor: resumed.Credential.LastCursor,
	}
	s.recordHost(ctx)
	return nil
}

// Reload re-reads the credential file at path, which a resuming process
// rewrites with a new generation and token, for a reader that follows a
// session it does not hold (peek, watch). It returns the file's
// credential and whether it differs from held; a missing or unreadable
// file (the session ended) is no change. The cursor the file records is
// the resuming process's, so it is not compared.
func Reload(path string, held store.Credential) (store.Credential, bool) {
	c, err := credfile.Read(path)
	if err != nil {
		return held, false
	}
	changed := c.SessionID != held.SessionID || c.Token != held.Token || c.Generation != held.Generation
	return c, changed
}
