package mcp

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
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

// ResumeFile binds the session of the credential file at path, exactly as
// ResumeFromEnv does: the session moves to a new generation (fencing any
// other holder) and the file is rewritten with it. A process that already
// holds a binding is refused with session_already_bound.
func (p *Process) ResumeFile(ctx context.Context, path string, allowCursorRecovery bool) error {
	if err := p.takeTurn(ctx); err != nil {
		return err
	}
	defer p.endTurn()
	if p.binding != nil {
		return collaberr.New(collaberr.SessionAlreadyBound, "This process already has a bound session; one process holds one session")
	}
	cred, err := credfile.Read(path)
	if err != nil {
		return err
	}
	resumed, err := p.store.ResumeSession(ctx, cred, allowCursorRecovery)
	if err != nil {
		return err
	}
	if err := credfile.Write(path, resumed.Credential, true); err != nil {
		return err
	}
	credfile.SweepTemps(path)
	p.binding = &binding{
		sessionID: cred.SessionID, token: cred.Token, generation: resumed.Credential.Generation,
		workspaceID: resumed.Session.WorkspaceID, credentialPath: path,
		recovery: resumed.Recovery, lastCursor: resumed.Credential.LastCursor,
	}
	p.notifyBind(cred.SessionID)
	return nil
}
