package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
	"github.com/agenttool/collab/core/scope"
)

// ClaimInput asks for a task's lease.
type ClaimInput struct {
	WorkspaceID     string
	actor           string // legacy label, set from the Actor
	TaskID          string
	IdempotencyKey  string
	ExpectedVersion int64
	TTLSeconds      *int64
}

// ClaimTaskForSession takes the lease for a session. An exact retry is
// answered from its receipt before Git is consulted; otherwise the
// session's worktree is observed outside the transaction and re-checked
// inside it, and exactly one of any number of concurrent claimers wins.
func (s *Store) claimTaskAsSession(ctx context.Context, cred Credential, in ClaimInput) (*answer.Of[TaskAnswer], error) {
	taskID, err := normalize.ID(in.TaskID, "task_id")
	if err != nil {
		return nil, err
	}
	version, err := normalize.ExpectedVersion(in.ExpectedVersion)
	if err != nil {
		return nil, err
	}
	ttl, err := normalize.TTL(in.TTLSeconds)
	if err != nil {
		return nil, err
	}
	request := map[string]any{"task_id": taskID, "expected_version": version, "ttl_seconds": ttl}
	sess, out, hit, err := sessionReceipt[TaskAnswer](ctx, s, cred, "task.claim.v2", in.IdempotencyKey, request)
	if err != nil || hit {
		return out, err
	}
	prep, err := s.prepareSessionCheckpoint(ctx, sess)
	if err != nil {
		return nil, err
	}
	return mutateAsSession(ctx, s, sessionMutation[TaskAnswer]{
		cred: cred, operation: "task.claim.v2", key: in.IdempotencyKey, request: request,
		apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*TaskAnswer, error) {
			return s.claimForSession(ctx, tx, sess, taskID, version, ttl, prep)
		},
	})
}

// claimForSession checks and grants a session's claim inside the write
// transaction.
func (s *Store) claimForSession(ctx context.Context, tx Tx, sess CoordinationSession, taskID string, version, ttl int64,
	prep prepared) (*TaskAnswer, error) {
	now := s.nowISO()
	t, err := loadTaskAt(ctx, tx, sess.WorkspaceID, taskID, version, now)
	if err != nil {
		return nil, err
	}
	if t, err = s.settleExpiredLease(ctx, tx, t, clockActor, now, true); err != nil {
		return nil, err
	}
	if err := s.checkClaimable(ctx, tx, t, true, now); err != nil {
		return nil, err
	}
	if err := prep.recheck(ctx, tx, sess.ID, now); err != nil {
		return nil, err
	}
	if err := prep.checkExpectedBase(t.ExpectedBaseSHA); err != nil {
		return nil, err
	}
	return s.grantSessionLease(ctx, tx, t, sess, prep, ttl, now)
}

// settleExpiredLease linearises an expired lease before a claim. An
// expired session lease needs explicit recovery (refused here); an expired
// legacy lease is released by the clock (or the claimant, in legacy mode)
// with its pending offers.
func (s *Store) settleExpiredLease(ctx context.Context, tx Tx, t Task, actor, now string, session bool) (Task, error) {
	if !leaseLapsed(&t, now) {
		return t, nil
	}
	if t.AssigneeSessionID != nil && session {
		return t, recoveryRequired(t)
	}
	if err := s.expireTaskHandoffs(ctx, tx, t.WorkspaceID, t.ID, "source_lease_expired", actor, nil, now); err != nil {
		return t, err
	}
	// The legacy release: the session columns stay as they are.
	if err := tx.UpdateTask(ctx, t, released(t, false, now)); err != nil {
		return t, err
	}
	if _, err := s.appendEvent(ctx, tx, t.WorkspaceID, newEvent{Type: journal.KindTaskClaimExpired, EntityID: t.ID, Actor: actor,
		Payload: map[string]any{"assignee": nullable(t.Assignee), "lease_id": nullable(t.LeaseID),
			"lease_expires_at": nullable(t.LeaseExpiresAt), "version": t.Version + 1}}); err != nil {
		return t, err
	}
	return loadTask(ctx, tx, t.WorkspaceID, t.ID, now)
}

func recoveryRequired(t Task) error {
	return collaberr.New(collaberr.RecoveryRequired,
		"This task's session lease expired; take it over, release it or block it with collab_task_recover and a note").
		With("task_id", t.ID).With("prior_assignee", nullable(t.Assignee)).With("prior_session_id", nullable(t.AssigneeSessionID)).
		With("prior_lease_id", nullable(t.LeaseID)).With("lease_expires_at", nullable(t.LeaseExpiresAt)).
		With("base_checkpoint", t.BaseCheckpoint).With("latest_progress", nullable(t.LatestProgress)).
		With("required_action", "collab_task_recover")
}

// checkClaimable refuses a task that is done, blocked, held, lacks its
// required scopes, waits on dependencies, or overlaps reserved paths.
func (s *Store) checkClaimable(ctx context.Context, tx Tx, t Task, session bool, now string) error {
	switch t.Status {
	case TaskCompleted:
		e := collaberr.New(collaberr.TaskCompleted, "A completed task cannot be claimed")
		if session {
			e.With("review_status", t.ReviewStatus)
		}
		return e
	case TaskBlocked:
		return collaberr.New(collaberr.TaskBlocked, "Unblock this task before claiming it").With("blocker", nullable(t.Blocker))
	case TaskClaimed:
		e := collaberr.New(collaberr.TaskClaimed, "Another claim on this task is still live").With("assignee", nullable(t.Assignee))
		if session {
			e.With("assignee_session_id", nullable(t.AssigneeSessionID))
		}
		return e.With("lease_expires_at", nullable(t.LeaseExpiresAt))
	}
	if session && t.WorkMode == "edit" && len(t.PathScopes) == 0 {
		return collaberr.New(collaberr.EditScopeRequired, "An edit task needs path scopes before it can be claimed")
	}
	if err := checkDependencies(ctx, tx, t, now); err != nil {
		return err
	}
	return checkPathConflicts(ctx, tx, t, now)
}

func checkDependencies(ctx context.Context, q Tasks, t Task, now string) error {
	var missing []string
	for _, d := range t.Dependencies {
		dep, err := loadTask(ctx, q, t.WorkspaceID, d, now)
		if err != nil {
			return err
		}
		if !dependencySatisfied(&dep) {
			missing = append(missing, d)
		}
	}
	if len(missing) > 0 {
		return collaberr.New(collaberr.DependenciesIncomplete, "Some dependencies are not complete (or not yet accepted)").
			With("dependencies", missing)
	}
	return nil
}

func checkPathConflicts(ctx context.Context, q Tx, t Task, now string) error {
	if len(t.PathScopes) == 0 || t.WorkMode == "read_only" {
		return nil
	}
	ws, err := workspaceIn(ctx, q, t.WorkspaceID)
	if err != nil {
		return err
	}
	reserved, err := reservations(ctx, q, ws.RepositoryKey, now)
	if err != nil {
		return err
	}
	conflicts := conflictsFor(&t, scope.NewSet(t.PathScopes), reserved)
	if len(conflicts) == 0 {
		return nil
	}
	c := conflicts[0]
	return collaberr.New(collaberr.PathScopeConflict, "The task's paths overlap work another claim has reserved").
		With("conflicting_task_id", c.ActiveTaskID).With("conflicting_workspace_id", c.ActiveWorkspaceID).
		With("assignee", nullable(c.Assignee)).With("assignee_session_id", nullable(c.AssigneeSessionID)).
		With("lease_expires_at", nullable(c.LeaseExpiresAt)).With("conflicts", c.PathPairs)
}

// grantSessionLease gives the session a fresh lease with the observed base
// checkpoint, upgrades the task to the session plane and clears the review
// state of an earlier completion.
func (s *Store) grantSessionLease(ctx context.Context, tx Tx, t Task, sess CoordinationSession, prep prepared, ttl int64, now string) (*TaskAnswer, error) {
	lease, expires := "lease_"+newUUID(), addSeconds(now, ttl)
	if err := tx.UpdateTask(ctx, t, claimed(t, prep.sessionLease(sess, lease, expires), now)); err != nil {
		return nil, err
	}
	h := holder{actor: sess.Actor, sessionID: &sess.ID}
	return s.taskEvent(ctx, tx, t, h, journal.KindTaskClaimed, map[string]any{
		"lease_id": lease, "lease_expires_at": expires, "worktree_id": prep.worktree.ID,
		"base_checkpoint": prep.rawCheckpoint(), "version": t.Version + 1, "checkpoint_boundary": checkpointBoundary,
	}, now)
}

// ClaimTask takes the lease in legacy mode. An expired lease of any kind
// is released first, by the claimant.
func (s *Store) ClaimTask(ctx context.Context, who Actor, in ClaimInput) (*answer.Of[TaskAnswer], error) {
	if cred, ok := who.Session(); ok {
		return s.claimTaskAsSession(ctx, cred, in)
	}
	in.actor = who.Label()
	return s.claimTaskAsLabel(ctx, in)
}

// claimTaskAsLabel takes the lease in legacy mode.
func (s *Store) claimTaskAsLabel(ctx context.Context, in ClaimInput) (*answer.Of[TaskAnswer], error) {
	version, err := normalize.ExpectedVersion(in.ExpectedVersion)
	if err != nil {
		return nil, err
	}
	actor, err := normalize.Actor(in.actor)
	if err != nil {
		return nil, err
	}
	key, err := normalize.IdempotencyKey(in.IdempotencyKey)
	if err != nil {
		return nil, err
	}
	taskID, err := normalize.ID(in.TaskID, "task_id")
	if err != nil {
		return nil, err
	}
	ttl, err := normalize.TTL(in.TTLSeconds)
	if err != nil {
		return nil, err
	}
	request := map[string]any{"workspace_id": in.WorkspaceID, "actor": actor, "task_id": taskID, "idempotency_key": key,
		"expected_version": version, "ttl_seconds": ttl}
	return mutateAsActor(ctx, s, legacyMutation[TaskAnswer]{workspaceID: in.WorkspaceID, actor: actor, operation: "task.claim", key: key,
		request: request, apply: func(ctx context.Context, tx Tx) (*TaskAnswer, error) {
			return s.claimForLabel(ctx, tx, in.WorkspaceID, taskID, actor, version, ttl)
		}})
}

// claimForLabel checks and grants a legacy claim inside the write
// transaction.
func (s *Store) claimForLabel(ctx context.Context, tx Tx, wsID, taskID, actor string, version, ttl int64) (*TaskAnswer, error) {
	now := s.nowISO()
	t, err := loadTaskAt(ctx, tx, wsID, taskID, version, now)
	if err != nil {
		return nil, err
	}
	var previous any
	if leaseLapsed(&t, now) {
		previous = nullable(t.Assignee)
	}
	if t, err = s.settleExpiredLease(ctx, tx, t, actor, now, false); err != nil {
		return nil, err
	}
	if err := s.checkClaimable(ctx, tx, t, false, now); err != nil {
		return nil, err
	}
	lease, expires := "lease_"+newUUID(), addSeconds(now, ttl)
	if err := tx.UpdateTask(ctx, t, claimed(t, Lease{ID: lease, ExpiresAt: expires, Assignee: actor}, now)); err != nil {
		return nil, err
	}
	return s.taskEvent(ctx, tx, t, holder{actor: actor}, journal.KindTaskClaimed, map[string]any{
		"lease_id": lease, "lease_expires_at": expires, "previous_assignee": previous, "version": t.Version + 1}, now)
}
