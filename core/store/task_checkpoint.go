package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/gitstate"
)

// checkpointBoundary is recorded with every session claim.
const checkpointBoundary = "server_observed_local_git_state_is_evidence_not_atomic_attribution_or_a_filesystem_lock"

// prepared is a worktree observation taken outside the write transaction
// (Git is slow; SQLite's write lock should not wait on it) and re-checked
// inside it.
type prepared struct {
	sessionID  string
	worktree   Worktree
	checkpoint gitstate.Checkpoint
	canonical  []byte // the checkpoint as stored: canonical JSON
}

// observeWorktree re-inspects a registered worktree and captures its Git
// state, refusing when the path no longer resolves to the same identity.
func (s *Store) observeWorktree(ctx context.Context, wt Worktree) (gitstate.Checkpoint, error) {
	id, cp, err := s.observe(ctx, wt.RootPath, "")
	if err != nil {
		cause := "repository_inspection_failed"
		if ce, ok := collaberr.As(err); ok {
			cause = ce.Code
		}
		return cp, collaberr.New(collaberr.WorktreeUnavailable, "The registered worktree could not be inspected; is the directory still there?").
			With("worktree_id", wt.ID).With("cause", cause)
	}
	if id.RootPath != wt.RootPath || id.WorktreeID != wt.ID || id.Fingerprint != wt.Fingerprint ||
		!equalPtr(id.GitCommonDirHash, wt.GitCommonDirHash) {
		return cp, collaberr.New(collaberr.WorktreeIdentityChanged,
			"The registered path now resolves to a different worktree identity").With("worktree_id", wt.ID)
	}
	return cp, nil
}

// prepareSessionCheckpoint observes the session's own registered worktree.
func (s *Store) prepareSessionCheckpoint(ctx context.Context, sess CoordinationSession) (prepared, error) {
	var wt Worktree
	var ok bool
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		wt, ok, err = worktreeByID(ctx, tx, sess.WorktreeID)
		return err
	})
	if err != nil {
		return prepared{}, err
	}
	if !ok {
		return prepared{}, collaberr.Newf(collaberr.WorktreeNotFound, "Worktree '%s' was not found", sess.WorktreeID)
	}
	cp, err := s.observeWorktree(ctx, wt)
	if err != nil {
		return prepared{}, err
	}
	return newPrepared(sess.ID, wt, cp)
}

func newPrepared(sessionID string, wt Worktree, cp gitstate.Checkpoint) (prepared, error) {
	b, err := canon.Marshal(cp.Map())
	if err != nil {
		return prepared{}, fmt.Errorf("encode checkpoint: %w", err)
	}
	return prepared{sessionID: sessionID, worktree: wt, checkpoint: cp, canonical: b}, nil
}

// recheck confirms inside the transaction that the observation still
// belongs to this session and the worktree row did not change, then
// records the observed Git facts on the worktree row.
func (p prepared) recheck(ctx context.Context, q Workspaces, sessionID, now string) error {
	if p.sessionID != sessionID {
		return collaberr.New(collaberr.WorktreeObservationStale, "The prepared worktree observation belongs to another session")
	}
	wt, ok, err := worktreeByID(ctx, q, p.worktree.ID)
	if err != nil {
		return err
	}
	if !ok || wt.RootPath != p.worktree.RootPath || wt.Fingerprint != p.worktree.Fingerprint ||
		!equalPtr(wt.GitCommonDirHash, p.worktree.GitCommonDirHash) || wt.WorkspaceID != p.worktree.WorkspaceID {
		return collaberr.New(collaberr.WorktreeObservationStale, "The registered worktree changed after it was inspected; try again").
			With("worktree_id", p.worktree.ID)
	}
	return touchWorktree(ctx, q, wt, p.checkpoint, now)
}

// checkExpectedBase refuses a claim when the worktree HEAD is not the
// task's required base.
func (p prepared) checkExpectedBase(expected *string) error {
	if expected == nil {
		return nil
	}
	head := p.checkpoint.HeadSHA
	if head == nil || *head != *expected {
		return collaberr.New(collaberr.ExpectedBaseMismatch, "The worktree HEAD is not the commit this task requires as its base").
			With("expected_base_sha", *expected).With("observed_head_sha", nullable(head)).With("worktree_id", p.worktree.ID)
	}
	return nil
}

// sessionLease is a lease for the session this observation belongs to,
// in its worktree, from the observed checkpoint.
func (p prepared) sessionLease(sess CoordinationSession, leaseID, expiresAt string) Lease {
	sessionID, worktreeID := sess.ID, p.worktree.ID
	return Lease{ID: leaseID, ExpiresAt: expiresAt, Assignee: sess.Actor, SessionID: &sessionID,
		WorktreeID: &worktreeID, BaseCheckpoint: p.rawCheckpoint()}
}

// rawCheckpoint is the stored checkpoint as a JSON value for payloads.
func (p prepared) rawCheckpoint() json.RawMessage { return json.RawMessage(p.canonical) }
