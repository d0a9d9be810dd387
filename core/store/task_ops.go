package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// RenewLease extends the caller's lease to at least now+ttl; it never
// shortens a lease.
func (s *Store) RenewLease(ctx context.Context, who Actor, in LeaseInput, ttl *int64) (*answer.Of[TaskAnswer], error) {
	lc, err := newLeaseCall(who, in)
	if err != nil {
		return nil, err
	}
	seconds, err := normalize.TTL(ttl)
	if err != nil {
		return nil, err
	}
	return mutateLease(ctx, s, lc, leaseChange[TaskAnswer]{
		operation: "task.renew", extra: map[string]any{"ttl_seconds": seconds},
		apply: func(ctx context.Context, tx Tx, t Task, h holder, now string) (*TaskAnswer, error) {
			expires := addSeconds(now, seconds)
			if *t.LeaseExpiresAt > expires {
				expires = *t.LeaseExpiresAt
			}
			if err := tx.UpdateTask(ctx, t, renewed(t, expires, now)); err != nil {
				return nil, err
			}
			return s.taskEvent(ctx, tx, t, h, journal.KindTaskLeaseRenewed, map[string]any{"lease_id": *t.LeaseID, "lease_expires_at": expires, "version": t.Version + 1}, now)
		},
	})
}

// taskEvent journals a change to t, then returns the reloaded task.
func (s *Store) taskEvent(ctx context.Context, tx Tx, t Task, h holder, typ journal.Kind, payload map[string]any, now string) (*TaskAnswer, error) {
	if _, err := s.appendEvent(ctx, tx, t.WorkspaceID, newEvent{Type: typ, EntityID: t.ID, Actor: h.actor, SessionID: h.sessionID, Payload: payload}); err != nil {
		return nil, err
	}
	return taskResult(ctx, tx, t.WorkspaceID, t.ID, now)
}

// RecordProgress sets the task's latest progress note.
func (s *Store) RecordProgress(ctx context.Context, who Actor, in LeaseInput, message string) (*answer.Of[TaskAnswer], error) {
	lc, err := newLeaseCall(who, in)
	if err != nil {
		return nil, err
	}
	msg, err := normalize.Text(message, field.Message)
	if err != nil {
		return nil, err
	}
	return mutateLease(ctx, s, lc, leaseChange[TaskAnswer]{
		operation: "task.progress", extra: map[string]any{"message": msg},
		apply: func(ctx context.Context, tx Tx, t Task, h holder, now string) (*TaskAnswer, error) {
			if err := tx.UpdateTask(ctx, t, progressed(t, msg, now)); err != nil {
				return nil, err
			}
			return s.taskEvent(ctx, tx, t, h, journal.KindTaskProgressed, map[string]any{"message": msg, "version": t.Version + 1}, now)
		},
	})
}

// ReleaseLease returns the task to the open pool; its pending offers expire.
func (s *Store) ReleaseLease(ctx context.Context, who Actor, in LeaseInput, summary *string) (*answer.Of[TaskAnswer], error) {
	lc, err := newLeaseCall(who, in)
	if err != nil {
		return nil, err
	}
	text, err := normalize.Optional(summary, field.ReleaseSummary)
	if err != nil {
		return nil, err
	}
	return mutateLease(ctx, s, lc, leaseChange[TaskAnswer]{
		operation: "task.release", extra: map[string]any{"summary": nullable(text)},
		apply: func(ctx context.Context, tx Tx, t Task, h holder, now string) (*TaskAnswer, error) {
			if err := s.expireTaskHandoffs(ctx, tx, t.WorkspaceID, t.ID, "task_released", h.actor, nil, now); err != nil {
				return nil, err
			}
			if err := tx.UpdateTask(ctx, t, released(t, h.session(), now)); err != nil {
				return nil, err
			}
			return s.taskEvent(ctx, tx, t, h, journal.KindTaskReleased, map[string]any{"summary": nullable(text), "version": t.Version + 1}, now)
		},
	})
}

// BlockTask records a blocker and releases the lease; pending offers expire.
func (s *Store) BlockTask(ctx context.Context, who Actor, in LeaseInput, blocker string) (*answer.Of[TaskAnswer], error) {
	lc, err := newLeaseCall(who, in)
	if err != nil {
		return nil, err
	}
	text, err := normalize.Text(blocker, field.Blocker)
	if err != nil {
		return nil, err
	}
	return mutateLease(ctx, s, lc, leaseChange[TaskAnswer]{
		operation: "task.block", extra: map[string]any{"blocker": text},
		apply: func(ctx context.Context, tx Tx, t Task, h holder, now string) (*TaskAnswer, error) {
			if err := s.expireTaskHandoffs(ctx, tx, t.WorkspaceID, t.ID, "task_blocked", h.actor, nil, now); err != nil {
				return nil, err
			}
			if err := tx.UpdateTask(ctx, t, blocked(t, text, h.session(), now)); err != nil {
				return nil, err
			}
			return s.taskEvent(ctx, tx, t, h, journal.KindTaskBlocked, map[string]any{"blocker": text, "version": t.Version + 1}, now)
		},
	})
}

// UnblockInput moves a blocked task back to the open pool.
type UnblockInput struct {
	WorkspaceID, TaskID, IdempotencyKey string
	ExpectedVersion                     int64
	Note                                *string
}

// UnblockTask needs no lease: any actor or session may unblock.
func (s *Store) UnblockTask(ctx context.Context, who Actor, in UnblockInput) (*answer.Of[TaskAnswer], error) {
	var actor string
	var err error
	cred, session := who.Session()
	if !session {
		if actor, err = normalize.Actor(who.Label()); err != nil {
			return nil, err
		}
	}
	key, err := normalize.IdempotencyKey(in.IdempotencyKey)
	if err != nil {
		return nil, err
	}
	taskID, err := normalize.ID(in.TaskID, "task_id")
	if err != nil {
		return nil, err
	}
	version, err := normalize.ExpectedVersion(in.ExpectedVersion)
	if err != nil {
		return nil, err
	}
	note, err := normalize.Optional(in.Note, field.UnblockNote)
	if err != nil {
		return nil, err
	}
	request := map[string]any{"task_id": taskID, "expected_version": version, "note": nullable(note)}
	apply := func(ctx context.Context, tx Tx, wsID string, h holder) (*TaskAnswer, error) {
		now := s.nowISO()
		t, err := loadTaskAt(ctx, tx, wsID, taskID, version, now)
		if err != nil {
			return nil, err
		}
		if t.Status != TaskBlocked {
			return nil, collaberr.New(collaberr.TaskNotBlocked, "Only a blocked task can be unblocked")
		}
		// A session unblocking also resets the review state; a legacy
		// writer never touches it.
		if err := tx.UpdateTask(ctx, t, unblocked(t, h.session(), now)); err != nil {
			return nil, err
		}
		return s.taskEvent(ctx, tx, t, h, journal.KindTaskUnblocked, map[string]any{"note": nullable(note), "version": t.Version + 1}, now)
	}
	if session {
		return mutateAsSession(ctx, s, sessionMutation[TaskAnswer]{cred: cred, operation: "task.unblock.v2", key: key, request: request,
			apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*TaskAnswer, error) {
				return apply(ctx, tx, sess.WorkspaceID, holder{actor: sess.Actor, sessionID: &sess.ID})
			}})
	}
	request["workspace_id"], request["actor"], request["idempotency_key"] = in.WorkspaceID, actor, key
	return mutateAsActor(ctx, s, legacyMutation[TaskAnswer]{workspaceID: in.WorkspaceID, actor: actor, operation: "task.unblock", key: key,
		request: request, apply: func(ctx context.Context, tx Tx) (*TaskAnswer, error) {
			return apply(ctx, tx, in.WorkspaceID, holder{actor: actor})
		}})
}
