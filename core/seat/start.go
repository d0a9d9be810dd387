package seat

import (
	"context"
	"path/filepath"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
)

// Boundary labels returned with every session start.
const (
	credentialBoundary = "credential_file_is_a_local_bearer_secret_never_return_its_contents_to_a_model_or_commit_it"
	identityBoundary   = "session_credentials_fence_cooperating_local_clients_but_do_not_authenticate_a_person_or_model"
)

// Started is the answer to a session start (collab_session_start's
// result). It names the credential file but never its directory or
// contents.
type Started struct {
	Workspace             store.Workspace           `json:"workspace"`
	Worktree              store.Worktree            `json:"worktree"`
	Session               store.CoordinationSession `json:"session"`
	CredentialFileCreated bool                      `json:"credential_file_created"`
	ResumeEnvironmentVar  string                    `json:"resume_environment_variable"`
	SessionFileName       string                    `json:"session_file_name"`
	IdentityBoundary      string                    `json:"identity_boundary"`
	CredentialBoundary    string                    `json:"credential_boundary"`
}

// alreadyBound refuses a second binding: one seat holds one session.
func (s *Seat) alreadyBound() error {
	if s.bound == nil {
		return nil
	}
	return collaberr.New(collaberr.SessionAlreadyBound, "This process already has a bound session; one process holds one session").
		With("session_id", s.bound.sessionID)
}

// Start begins a session (its actor labelled for the seat's principal),
// writes its credential file beside the database and binds it. A seat
// already bound is refused with session_already_bound. When the file
// cannot be written the new session is ended again.
func (s *Seat) Start(ctx context.Context, in store.StartSessionInput) (Started, error) {
	if err := s.alreadyBound(); err != nil {
		return Started{}, err
	}
	in.Actor = s.Labelled(in.Actor)
	started, err := s.store.StartSession(ctx, in)
	if err != nil {
		return Started{}, err
	}
	sess := started.Session
	path, err := credfile.PathFor(s.store.Path(), sess.ID)
	if err != nil {
		return Started{}, err
	}
	b := &binding{sessionID: sess.ID, token: started.Token, generation: sess.Generation, workspaceID: sess.WorkspaceID,
		credentialPath: path, lastCursor: &credfile.Cursor{EpochID: sess.Cursor.EpochID, Sequence: sess.Cursor.Sequence, Hash: sess.Cursor.Hash}}
	if err := credfile.Write(path, credfile.Credential{SessionID: sess.ID, Token: started.Token,
		Generation: sess.Generation, LastCursor: b.lastCursor}, false); err != nil {
		reason := "credential_file_write_failed"
		_, _ = s.store.EndSession(ctx, b.credential(), &reason)
		return Started{}, err
	}
	s.bound = b
	s.recordHost(ctx)
	return Started{
		Workspace: started.Workspace, Worktree: started.Worktree, Session: sess, CredentialFileCreated: true,
		ResumeEnvironmentVar: place.EnvSessionFile, SessionFileName: s.FileName(),
		IdentityBoundary: identityBoundary, CredentialBoundary: credentialBoundary,
	}, nil
}

// Ended is the answer to a session end (collab_session_end's result).
type Ended struct {
	Session               store.CoordinationSession `json:"session"`
	CredentialFileRemoved bool                      `json:"credential_file_removed"`
	SessionFileName       string                    `json:"session_file_name"`
}

// End ends the bound session, unbinds it and removes its credential file.
// It returns the ended session's id with the answer, so that observers
// can be told which session went.
func (s *Seat) End(ctx context.Context, reason *string) (Ended, error) {
	if s.bound == nil {
		return Ended{}, collaberr.New(collaberr.SessionNotBound, "No session is bound to this process, so there is nothing to end")
	}
	b := s.bound
	sess, err := s.store.EndSession(ctx, b.credential(), reason)
	if err != nil {
		return Ended{}, err
	}
	s.bound = nil
	if err := credfile.Remove(b.credentialPath); err != nil {
		return Ended{}, err
	}
	credfile.SweepTemps(b.credentialPath)
	return Ended{Session: sess, CredentialFileRemoved: true, SessionFileName: filepath.Base(b.credentialPath)}, nil
}
