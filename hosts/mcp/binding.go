package mcp

import (
	"path/filepath"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/store"
)

// binding is the credential-bound session this process acts as. The token
// lives only here and in the credential file; it never enters a result.
type binding struct {
	sessionID      string
	token          string
	generation     int64
	workspaceID    string
	credentialPath string
	// recovery is set when the host resumed this session in cursor
	// recovery mode: only collab_cursor_reset (and ending) may write.
	recovery   *store.Recovery
	lastCursor *credfile.Cursor
}

func (b *binding) credential() store.Credential {
	return store.Credential{SessionID: b.sessionID, Token: b.token, Generation: b.generation}
}

// fileName is the credential file's base name, the only part of its path
// a tool result may show.
func (b *binding) fileName() string { return filepath.Base(b.credentialPath) }

// persist rewrites the credential file with the binding's current cursor.
// The rewrite is atomic but not forced to disk, like the database commit
// that moved the cursor.
func (b *binding) persist() error {
	cred := b.credential()
	cred.LastCursor = b.lastCursor
	return credfile.Rewrite(b.credentialPath, cred)
}

// requireWorkspace refuses a bound process acting on another workspace.
func (p *Process) requireWorkspace(workspaceID string) error {
	if p.binding != nil && p.binding.workspaceID != workspaceID {
		return collaberr.New(collaberr.SessionWorkspaceMismatch, "This process is bound to a session of another workspace")
	}
	return nil
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
	if p.binding == nil {
		return store.Credential{}, collaberr.New(collaberr.SessionNotBound, "No session is bound to this process; "+advice)
	}
	if r := p.binding.recovery; r != nil && !allowRecovery {
		return store.Credential{}, collaberr.New(collaberr.CursorRecoveryRequired,
			"The host resumed this session in recovery mode; reset the cursor to an exact journal anchor with collab_cursor_reset first").
			With("required", true).With("cause", r.Cause).With("persisted_cursor", r.PersistedCursor).
			With("host_cursor", r.HostCursor).With("expected_cursor_version", r.ExpectedCursorVersion)
	}
	return p.binding.credential(), nil
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
func (p *Process) CredentialFile() string {
	if p.binding == nil {
		return ""
	}
	return p.binding.credentialPath
}
