package mcp

import (
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// The binding itself (which session this process is, its credential file,
// its pending recovery) lives in the process's seat (core/seat); these are
// the MCP handlers' ways of asking it.

// requireWorkspace refuses a bound process acting on another workspace.
func (p *Process) requireWorkspace(workspaceID string) error {
	return p.seat.RequireWorkspace(workspaceID)
}

// boundCredential returns the binding's credential for a session-only
// operation. While a host-authorised cursor recovery is pending, only the
// reset itself (allowRecovery) may proceed.
func (p *Process) boundCredential(allowRecovery bool) (store.Credential, error) {
	return p.sessionCredential(allowRecovery, "call collab_session_start first")
}

// sessionCredential is boundCredential for a tool with no legacy mode:
// an unbound caller is refused with advice, which must name only what
// that caller can do (a tool that takes no actor never suggests one).
func (p *Process) sessionCredential(allowRecovery bool, advice string) (store.Credential, error) {
	return p.seat.Credential(allowRecovery, advice)
}

// legacyActor returns the actor label an unbound call must carry.
func legacyActor(a Args) (string, error) {
	if !a.Has("actor") {
		return "", collaberr.New(collaberr.ActorRequired,
			"Legacy mode needs actor; a bound session takes its actor from its credential instead")
	}
	return a.String("actor"), nil
}

// CredentialFile is the path of the bound session's credential file, ""
// when no session is bound. It is for the process's own bookkeeping (the
// host link a stdio server records); it must never enter any output. Call
// it from OnBind, which runs in the binding call's turn.
func (p *Process) CredentialFile() string { return p.seat.CredentialFile() }
