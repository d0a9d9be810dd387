package mcp

import (
	"context"

	"github.com/agenttool/collab/core/place"
)

// ResumeFromEnv binds the session named by AGENTOOL_COLLAB_SESSION_FILE, if
// any, and reports whether it did. The file is validated, the session moves
// to a new generation (fencing older processes) and the same file is
// rewritten with that generation. With AGENTOOL_COLLAB_ALLOW_CURSOR_RECOVERY
// set to exactly "1", cursor disagreements start the process in recovery.
func (p *Process) ResumeFromEnv(ctx context.Context) (bool, error) {
	path := p.getenv(place.EnvSessionFile)
	if path == "" {
		return false, nil
	}
	if err := p.ResumeFile(ctx, path, p.getenv(place.EnvAllowCursorRecovery) == "1"); err != nil {
		return false, err
	}
	return true, nil
}

// ResumeFile binds the session of the credential file at path in the
// process's turn, exactly as ResumeFromEnv does (core/seat.Seat.Resume).
// A process that already holds a binding is refused with
// session_already_bound.
func (p *Process) ResumeFile(ctx context.Context, path string, allowCursorRecovery bool) error {
	if err := p.takeTurn(ctx); err != nil {
		return err
	}
	defer p.endTurn()
	if err := p.seat.Resume(ctx, path, allowCursorRecovery); err != nil {
		return err
	}
	p.notifyBind(p.seat.SessionID())
	return nil
}
