package mcp

import (
	"context"

	"github.com/agenttool/collab/core/credfile"
)

// ResumeFromEnv binds the session named by AGENTOOL_COLLAB_SESSION_FILE, if
// any, and reports whether it did. The file is validated, the session moves
// to a new generation (fencing older processes) and the same file is
// rewritten with that generation. With AGENTOOL_COLLAB_ALLOW_CURSOR_RECOVERY
// set to exactly "1", cursor disagreements start the process in recovery.
func (p *Process) ResumeFromEnv(ctx context.Context) (bool, error) {
	path := p.getenv("AGENTOOL_COLLAB_SESSION_FILE")
	if path == "" {
		return false, nil
	}
	if err := p.takeTurn(ctx); err != nil {
		return false, err
	}
	defer p.endTurn()
	cred, err := credfile.Read(path)
	if err != nil {
		return false, err
	}
	resumed, err := p.store.ResumeSession(ctx, cred, p.getenv("AGENTOOL_COLLAB_ALLOW_CURSOR_RECOVERY") == "1")
	if err != nil {
		return false, err
	}
	if err := credfile.Write(path, resumed.Credential, true); err != nil {
		return false, err
	}
	credfile.SweepTemps(path)
	p.binding = &binding{
		sessionID: cred.SessionID, token: cred.Token, generation: resumed.Credential.Generation,
		workspaceID: resumed.Session.WorkspaceID, credentialPath: path,
		recovery: resumed.Recovery, lastCursor: resumed.Credential.LastCursor,
	}
	return true, nil
}
