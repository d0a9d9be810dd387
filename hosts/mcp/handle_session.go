package mcp

import (
	"context"
	"github.com/agenttool/collab/core/field"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
)

// Boundary labels returned with every session start.
const (
	credentialBoundary = "credential_file_is_a_local_bearer_secret_never_return_its_contents_to_a_model_or_commit_it"
	identityBoundary   = "session_credentials_fence_cooperating_local_clients_but_do_not_authenticate_a_person_or_model"
	resumeVariable     = place.EnvSessionFile
)

// SessionStarted is collab_session_start's result. It names the credential
// file but never its directory or contents.
type SessionStarted struct {
	Workspace             store.Workspace           `json:"workspace"`
	Worktree              store.Worktree            `json:"worktree"`
	Session               store.CoordinationSession `json:"session"`
	CredentialFileCreated bool                      `json:"credential_file_created"`
	ResumeEnvironmentVar  string                    `json:"resume_environment_variable"`
	SessionFileName       string                    `json:"session_file_name"`
	IdentityBoundary      string                    `json:"identity_boundary"`
	CredentialBoundary    string                    `json:"credential_boundary"`
}

func handleSessionStart(ctx context.Context, p *Process, a Args) (any, error) {
	if p.binding != nil {
		return nil, collaberr.New(collaberr.SessionAlreadyBound, "This process already has a bound session; one process holds one session").
			With("session_id", p.binding.sessionID)
	}
	started, err := p.store.StartSession(ctx, store.StartSessionInput{
		RootPath: a.String("root_path"), Actor: p.principalActor(a.String("actor")), Role: a.OptString("role"),
		ParentSessionID: a.OptString("parent_session_id"), RepositoryKey: a.String("repository_key"),
	})
	if err != nil {
		return nil, err
	}
	sess := started.Session
	path, err := credfile.PathFor(p.store.Path(), sess.ID)
	if err != nil {
		return nil, err
	}
	b := &binding{sessionID: sess.ID, token: started.Token, generation: sess.Generation, workspaceID: sess.WorkspaceID,
		credentialPath: path, lastCursor: &credfile.Cursor{EpochID: sess.Cursor.EpochID, Sequence: sess.Cursor.Sequence, Hash: sess.Cursor.Hash}}
	if err := credfile.Write(path, credfile.Credential{SessionID: sess.ID, Token: started.Token,
		Generation: sess.Generation, LastCursor: b.lastCursor}, false); err != nil {
		reason := "credential_file_write_failed"
		_, _ = p.store.EndSession(ctx, b.credential(), &reason)
		return nil, err
	}
	p.binding = b
	p.notifyBind(sess.ID)
	return SessionStarted{
		Workspace: started.Workspace, Worktree: started.Worktree, Session: sess, CredentialFileCreated: true,
		ResumeEnvironmentVar: resumeVariable, SessionFileName: b.fileName(),
		IdentityBoundary: identityBoundary, CredentialBoundary: credentialBoundary,
	}, nil
}

// SessionEnded is collab_session_end's result.
type SessionEnded struct {
	Session               store.CoordinationSession `json:"session"`
	CredentialFileRemoved bool                      `json:"credential_file_removed"`
	SessionFileName       string                    `json:"session_file_name"`
}

func handleSessionEnd(ctx context.Context, p *Process, a Args) (any, error) {
	if p.binding == nil {
		return nil, collaberr.New(collaberr.SessionNotBound, "No session is bound to this process, so there is nothing to end")
	}
	b := p.binding
	sess, err := p.store.EndSession(ctx, b.credential(), a.OptString("reason"))
	if err != nil {
		return nil, err
	}
	p.binding = nil
	p.notifyUnbind(b.sessionID)
	if err := credfile.Remove(b.credentialPath); err != nil {
		return nil, err
	}
	credfile.SweepTemps(b.credentialPath)
	return SessionEnded{Session: sess, CredentialFileRemoved: true, SessionFileName: b.fileName()}, nil
}

func handleCursorAck(ctx context.Context, p *Process, a Args) (any, error) {
	ws := a.String("workspace_id")
	if err := p.requireWorkspace(ws); err != nil {
		return nil, err
	}
	cred, err := p.sessionCredential(false, "only a bound session has a cursor to acknowledge: call collab_session_start first "+
		"(without a session, collab_next with actor and after_sequence reads events and keeps no cursor)")
	if err != nil {
		return nil, err
	}
	sess, err := p.store.AckCursor(ctx, cred, ws, *anchorArg(a, "anchor"), a.Int("expected_cursor_version"))
	if err != nil {
		return nil, err
	}
	return p.rememberCursor(sess)
}

func handleCursorReset(ctx context.Context, p *Process, a Args) (any, error) {
	ws := a.String("workspace_id")
	if err := p.requireWorkspace(ws); err != nil {
		return nil, err
	}
	cred, err := p.sessionCredential(true, "only a bound session has a cursor to reset: call collab_session_start first, "+
		"or let the host resume the session whose cursor needs the reset")
	if err != nil {
		return nil, err
	}
	sess, err := p.store.ResetCursor(ctx, cred, store.ResetCursorInput{
		WorkspaceID: ws, IdempotencyKey: a.String("idempotency_key"), Target: *anchorArg(a, "target"),
		ExpectedVersion: a.Int("expected_cursor_version"), Reason: a.String("reason"),
	})
	if err != nil {
		return nil, err
	}
	p.binding.recovery = nil
	return p.rememberCursor(sess)
}

// rememberCursor records the session's cursor in the binding and its
// credential file, so a host restart resumes from what was acknowledged.
func (p *Process) rememberCursor(sess store.CoordinationSession) (any, error) {
	c := sess.Cursor
	p.binding.lastCursor = &credfile.Cursor{EpochID: c.EpochID, Sequence: c.Sequence, Hash: c.Hash}
	if err := p.binding.persist(); err != nil {
		return nil, err
	}
	return map[string]any{"session": sess}, nil
}

func handleNext(ctx context.Context, p *Process, a Args) (any, error) {
	ws := a.String("workspace_id")
	limit := field.EventLimit.Spec().Default
	if n := a.OptInt("event_limit"); n != nil {
		limit = *n
	}
	if p.binding != nil {
		if err := p.requireWorkspace(ws); err != nil {
			return nil, err
		}
		cred, err := p.boundCredential(false)
		if err != nil {
			return nil, err
		}
		return p.store.NextForSession(ctx, cred, anchorArg(a, "known_cursor"), int(limit))
	}
	actor, err := legacyActor(a)
	if err != nil {
		return nil, err
	}
	return p.store.NextForActor(ctx, ws, actor, a.Int("after_sequence"), int(limit))
}
