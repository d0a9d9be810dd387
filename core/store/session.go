package store

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// Credential authenticates one credential-bound session. It is the one
// credential type, credfile.Credential: the session id, the bearer token
// and the generation this process holds (a newer generation, from a later
// resume, fences every older one). Its LastCursor is read by ResumeSession
// only; every other method ignores it.
type Credential = credfile.Credential

// identityBoundary is recorded with every session start.
const identityBoundary = "session_credentials_fence_cooperating_local_clients_but_do_not_authenticate_a_person_or_model"

// StartSessionInput describes a new credential-bound session.
type StartSessionInput struct {
	RootPath        string
	Actor           string
	Role            *string
	ParentSessionID *string
	RepositoryKey   string
}

// StartedSession is a new session with the secret the caller must keep.
type StartedSession struct {
	Workspace Workspace
	Worktree  Worktree
	Session   CoordinationSession
	Token     string
}

// StartSession opens the directory's workspace, registers its worktree and
// creates an active session at generation 1 whose cursor is the genesis of
// the workspace journal. Only the token's hash is stored.
func (s *Store) StartSession(ctx context.Context, in StartSessionInput) (StartedSession, error) {
	var out StartedSession
	actor, err := normalize.Actor(in.Actor)
	if err != nil {
		return out, err
	}
	role, err := normalize.Optional(in.Role, field.Role)
	if err != nil {
		return out, err
	}
	id, cp, err := s.observe(ctx, in.RootPath, in.RepositoryKey)
	if err != nil {
		return out, err
	}
	if err := s.refusePartitioned(ctx, id.RepositoryKey); err != nil {
		return out, err
	}
	var opened OpenedWorkspace
	if err := s.writeTx(ctx, func(tx Tx) error {
		opened, err = s.openWorkspaceIn(ctx, tx, actor, nil, id, cp)
		return err
	}); err != nil {
		return out, err
	}
	if opened.Worktree.ID == "" {
		return out, collaberr.New(collaberr.WorktreeNotFound, "The session's worktree was not registered; start the session again")
	}
	var parent *string
	if in.ParentSessionID != nil {
		p, err := normalize.ID(*in.ParentSessionID, "parent_session_id")
		if err != nil {
			return out, err
		}
		parent = &p
	}
	token, err := credfile.NewToken()
	if err != nil {
		return out, fmt.Errorf("generate session token: %w", err)
	}
	err = s.writeTx(ctx, func(tx Tx) error {
		sess, err := s.insertSession(ctx, tx, opened, actor, role, parent, token)
		if err != nil {
			return err
		}
		out.Session = sess
		out.Workspace, err = readWorkspace(ctx, tx, opened.Workspace.ID)
		return err
	})
	out.Worktree, out.Token = opened.Worktree, token
	return out, err
}

// refusePartitioned refuses a repository whose v0.1 journals were kept
// apart by migration: sessions need one journal per repository.
func (s *Store) refusePartitioned(ctx context.Context, key string) error {
	var ids []string
	err := s.engine().Read(ctx, func(tx Tx) error {
		ws, err := repositoryWorkspaces(ctx, tx, key)
		for _, w := range ws {
			ids = append(ids, w.ID)
		}
		return err
	})
	if err != nil {
		return err
	}
	if len(ids) > 1 {
		return collaberr.New(collaberr.RepositoryPartitioned,
			"This repository has several preserved v0.1 journals; reconcile them before starting credential-bound sessions (legacy mode still works in each)").
			With("workspace_ids", ids)
	}
	return nil
}

func (s *Store) insertSession(ctx context.Context, tx Tx, opened OpenedWorkspace, actor string, role, parent *string, token string) (CoordinationSession, error) {
	wsID := opened.Workspace.ID
	if parent != nil {
		p, ok, err := tx.Session(ctx, *parent)
		if err != nil {
			return CoordinationSession{}, err
		}
		if !ok {
			return CoordinationSession{}, sessionNotFound(*parent)
		}
		if p.WorkspaceID != wsID {
			return CoordinationSession{}, collaberr.New(collaberr.ParentSessionMismatch, "A parent session must belong to the same workspace")
		}
	}
	now := s.nowISO()
	id := "session_" + newUUID()
	err := tx.InsertSession(ctx, NewSession{ID: id, WorkspaceID: wsID, WorktreeID: opened.Worktree.ID, Actor: actor,
		Role: role, ParentSessionID: parent, TokenHash: credfile.TokenHash(token), JoinedAt: now,
		Cursor: journal.Anchor{EpochID: opened.Workspace.EpochID, Hash: journal.GenesisHash}})
	if err != nil {
		return CoordinationSession{}, err
	}
	if _, err := s.appendEvent(ctx, tx, wsID, newEvent{
		Type: journal.KindSessionJoined, EntityID: id, Actor: actor, SessionID: &id,
		Payload: map[string]any{
			"worktree_id": opened.Worktree.ID, "role": nullable(role), "parent_session_id": nullable(parent),
			"identity_boundary": identityBoundary,
		},
	}); err != nil {
		return CoordinationSession{}, err
	}
	sess, _, err := tx.Session(ctx, id)
	return sess, err
}

func sessionNotFound(id string) error {
	return collaberr.Newf(collaberr.SessionNotFound, "Session '%s' was not found", id)
}

func authFailed() error {
	return collaberr.New(collaberr.SessionAuthFailed,
		"The session credential is not valid: the session ended, or a newer process resumed it")
}

// authenticate checks a credential inside the caller's transaction: a
// well-formed id, the token, the current generation and an active session.
// Every failure looks the same to the caller. Unless allowRecovery, a
// session waiting for an audited cursor reset is refused too.
func authenticate(ctx context.Context, q Sessions, cred Credential, allowRecovery bool) (CoordinationSession, error) {
	if _, err := normalize.ID(cred.SessionID, "session_id"); err != nil {
		return CoordinationSession{}, authFailed()
	}
	sess, found, err := q.Session(ctx, cred.SessionID)
	if err != nil {
		return sess, err
	}
	stored := journal.GenesisHash
	if found {
		stored = sess.TokenHash
	}
	tokenOK := credfile.TokenMatches(stored, cred.Token)
	if !found || !tokenOK || sess.Generation != cred.Generation || sess.Status != SessionActive {
		return sess, authFailed()
	}
	if sess.CursorRecoveryRequired && !allowRecovery {
		return sess, collaberr.New(collaberr.CursorRecoveryRequired,
			"This session must reset its cursor to an exact journal anchor before it can write again").
			With("persisted_cursor", sess.Cursor).With("expected_cursor_version", sess.CursorVersion)
	}
	return sess, nil
}

// Session reads one credential-bound session.
func (s *Store) Session(ctx context.Context, id string) (CoordinationSession, error) {
	var sess CoordinationSession
	err := s.engine().Read(ctx, func(tx Tx) error {
		var ok bool
		var err error
		sess, ok, err = tx.Session(ctx, id)
		if err == nil && !ok {
			err = sessionNotFound(id)
		}
		return err
	})
	return sess, err
}
