package seat

import (
	"fmt"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/store"
)

// RememberCursor records sess's cursor in the binding and rewrites the
// credential file with it, so a host restart resumes from what was
// acknowledged. The rewrite is atomic but not forced to disk, like the
// database commit that moved the cursor; a cursor the file already
// records is not rewritten (recordsCursor).
func (s *Seat) RememberCursor(sess store.CoordinationSession) error {
	if s.bound == nil {
		return fmt.Errorf("remember the cursor of session %s: no session is bound", sess.ID)
	}
	c := sess.Cursor
	cur := credfile.Cursor{EpochID: c.EpochID, Sequence: c.Sequence, Hash: c.Hash}
	if s.bound.recordsCursor(cur) {
		return nil
	}
	s.bound.lastCursor = &cur
	cred := s.bound.credential()
	cred.LastCursor = s.bound.lastCursor
	return credfile.Rewrite(s.bound.credentialPath, cred)
}

// Recovered ends a pending cursor recovery: the reset has been made, so
// the session may write again.
func (s *Seat) Recovered() {
	if s.bound != nil {
		s.bound.recovery = nil
	}
}
