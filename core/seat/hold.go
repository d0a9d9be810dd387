package seat

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/store"
)

// Hold binds the session of the credential file at path as it stands,
// without resuming it: no generation moves, no cursor is compared and no
// event is appended, so a caller that acts through the same file again
// and again (a person's commands, one process each) leaves the journal
// exactly as its writes leave it. The file must name an active session
// whose token it holds; otherwise the seat is refused with
// session_auth_failed, as any use of that credential would be. A session
// waiting for an audited cursor reset is bound as it is, and the store
// refuses its writes until the reset (cursor_recovery_required).
//
// current reports whether the file's generation is the session's: false
// means another holder resumed the session from a copy of the file, and
// nothing is bound. Taking the session back from that holder is a resume
// (Resume), which the journal records.
func (s *Seat) Hold(ctx context.Context, path string) (current bool, err error) {
	if err := s.alreadyBound(); err != nil {
		return false, err
	}
	cred, err := credfile.Read(path)
	if err != nil {
		return false, err
	}
	sess, err := s.store.Session(ctx, cred.SessionID)
	if _, refused := collaberr.As(err); refused {
		return false, collaberr.New(collaberr.SessionAuthFailed, "The session credential is not valid: its session is unknown here")
	}
	if err != nil {
		return false, err
	}
	if sess.Status != store.SessionActive || !credfile.TokenMatches(sess.TokenHash, cred.Token) {
		return false, collaberr.New(collaberr.SessionAuthFailed, "The session credential is not valid: the session ended")
	}
	if sess.Generation != cred.Generation {
		return false, nil
	}
	s.bound = &binding{
		sessionID: cred.SessionID, token: cred.Token, generation: cred.Generation,
		workspaceID: sess.WorkspaceID, credentialPath: path, lastCursor: cred.LastCursor,
	}
	return true, nil
}
