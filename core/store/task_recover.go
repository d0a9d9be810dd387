package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// recoveryNote is recorded with every recovery: it acknowledges a lost
// lease and says nothing about the work done under it.
const recoveryNote = "Recovery acknowledges an expired coordination lease; it does not accept or attribute prior work."

// RecoverInput explicitly recovers an expired session lease.
type RecoverInput struct {
	WorkspaceID     string
	TaskID          string
	IdempotencyKey  string
	ExpectedVersion int64
	RecoveryNote    string
	Action          *string // takeover (default), release or block
	Blocker         *string
	TTLSeconds      *int64
}

type recoverFields struct {
	taskID, note, action string
	version, ttl         int64
	blocker              *string
}

func normalizeRecover(in RecoverInput) (recoverFields, error) {
	var f recoverFields
	var err error
	if f.taskID, err = normalize.ID(in.TaskID, "task_id"); err != nil {
		return f, err
	}
	if f.version, err = normalize.ExpectedVersion(in.ExpectedVersion); err != nil {
		return f, err
	}
	if f.note, err = normalize.Text(in.RecoveryNote, field.RecoveryNote); err != nil {
		return f, err
	}
	f.action = "takeover"
	if in.Action != nil {
		f.action = *in.Action
	}
	if f.action != "takeover" && f.action != "release" && f.action != "block" {
		return f, collaberr.New(collaberr.InvalidRecoveryAction, "action must be takeover, release or block")
	}
	if f.blocker, err = normalize.Optional(in.Blocker, field.Blocker); err != nil {
		return f, err
	}
	if f.action == "block" && f.blocker == nil {
		return f, collaberr.New(collaberr.RecoveryBlockerRequired, "Blocking a recovered task needs a blocker")
	}
	f.ttl, err = normalize.TTL(in.TTLSeconds)
	return f, err
}

// RecoverTask acknowledges an expired session lease and then takes the
// task over, releases it or blocks it, in one transaction. Any session may
// recover, once per lost lease.
func (s *Store) RecoverTask(ctx context.Context, cred Credential, in RecoverInput) (*answer.Of[TaskAnswer], error) {
	f, err := normalizeRecover(in)
	if err != nil {
		return nil, err
	}
	request := map[string]any{"task_id": f.taskID, "expected_version": f.version, "recovery_note": f.note,
		"action": f.action, "blocker": nullable(f.blocker), "ttl_seconds": f.ttl}
	sess, out, hit, err := sessionReceipt[TaskAnswer](ctx, s, cred, "task.recover.v2", in.IdempotencyKey, request)
	if err != nil || hit {
		return out, err
	}
	var prep prepared
	if f.action == "takeover" {
		if prep, err = s.prepareSessionCheckpoint(ctx, sess); err != nil {
			return nil, err
		}
	}
	return mutateAsSession(ctx, s, sessionMutation[TaskAnswer]{
		cred: cred, operation: "task.recover.v2", key: in.IdempotencyKey, request: request,
		apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*TaskAnswer, error) {
			return s.applyRecovery(ctx, tx, sess, f, prep)
		},
	})
}

func (s *Store) applyRecovery(ctx context.Context, tx Tx, sess CoordinationSession, f recoverFields, prep prepared) (*TaskAnswer, error) {
	now := s.nowISO()
	t, err := loadTaskAt(ctx, tx, sess.WorkspaceID, f.taskID, f.version, now)
	if err != nil {
		return nil, err
	}
	if !leaseLapsed(&t, now) || t.LeaseID == nil || t.AssigneeSessionID == nil {
		return nil, collaberr.New(collaberr.RecoveryNotRequired, "Only an expired lease held by a session needs explicit recovery")
	}
	prior := map[string]any{"assignee": nullable(t.Assignee), "session_id": nullable(t.AssigneeSessionID),
		"lease_id": *t.LeaseID, "lease_expires_at": *t.LeaseExpiresAt, "checkpoint": t.BaseCheckpoint}
	reopened, err := s.expireSessionLease(ctx, tx, t, sess, prior, now)
	if err != nil {
		return nil, err
	}
	h := holder{actor: sess.Actor, sessionID: &sess.ID}
	recovery := recoveryRecord{task: t, sess: sess, action: f.action, note: f.note, now: now}
	if f.action == "takeover" {
		return s.recoverTakeover(ctx, tx, t, sess, prep, f.ttl, prior, recovery)
	}
	status := TaskOpen
	if f.action == "block" {
		status = TaskBlocked
	}
	if err := tx.UpdateTask(ctx, reopened, settled(reopened, status, f.blocker, now)); err != nil {
		return nil, err
	}
	ev, err := s.appendEvent(ctx, tx, t.WorkspaceID, newEvent{Type: journal.KindTaskRecovered, EntityID: t.ID, Actor: h.actor, SessionID: h.sessionID,
		Payload: map[string]any{"prior_lease": prior, "action": f.action, "recovery_note": f.note, "recovery_checkpoint": nil,
			"version": t.Version + 2, "note": recoveryNote}})
	if err != nil {
		return nil, err
	}
	if err := recovery.insert(ctx, tx, nil, ev.Sequence); err != nil {
		return nil, err
	}
	return taskResult(ctx, tx, t.WorkspaceID, t.ID, now)
}

// expireSessionLease linearises the lost lease as the clock's doing and
// returns the task as it is then stored.
func (s *Store) expireSessionLease(ctx context.Context, tx Tx, t Task, sess CoordinationSession, prior map[string]any, now string) (Task, error) {
	if err := s.expireTaskHandoffs(ctx, tx, t.WorkspaceID, t.ID, "source_lease_expired", clockActor, nil, now); err != nil {
		return t, err
	}
	reopened := expired(t, now)
	if err := tx.UpdateTask(ctx, t, reopened); err != nil {
		return t, err
	}
	payload := map[string]any{"effective_at": *t.LeaseExpiresAt, "observed_by_session_id": sess.ID, "version": t.Version + 1}
	for k, v := range prior {
		payload[k] = v
	}
	_, err := s.appendEvent(ctx, tx, t.WorkspaceID, newEvent{Type: journal.KindTaskClaimExpired, EntityID: t.ID, Actor: clockActor, Payload: payload})
	return reopened, err
}

func (s *Store) recoverTakeover(ctx context.Context, tx Tx, t Task, sess CoordinationSession, prep prepared, ttl int64,
	prior map[string]any, rec recoveryRecord) (*TaskAnswer, error) {
	now := rec.now
	if err := prep.recheck(ctx, tx, sess.ID, now); err != nil {
		return nil, err
	}
	open, err := loadTask(ctx, tx, t.WorkspaceID, t.ID, now)
	if err != nil {
		return nil, err
	}
	if err := checkDependencies(ctx, tx, open, now); err != nil {
		return nil, err
	}
	if err := checkPathConflicts(ctx, tx, open, now); err != nil {
		return nil, err
	}
	if err := prep.checkExpectedBase(open.ExpectedBaseSHA); err != nil {
		return nil, err
	}
	lease, expires := "lease_"+newUUID(), addSeconds(now, ttl)
	if err := tx.UpdateTask(ctx, open, takenOver(open, prep.sessionLease(sess, lease, expires), now)); err != nil {
		return nil, err
	}
	ev, err := s.appendEvent(ctx, tx, t.WorkspaceID, newEvent{Type: journal.KindTaskRecovered, EntityID: t.ID, Actor: sess.Actor, SessionID: &sess.ID,
		Payload: map[string]any{"prior_lease": prior, "recovery_note": rec.note, "recovery_checkpoint": prep.rawCheckpoint(),
			"lease_id": lease, "lease_expires_at": expires, "version": t.Version + 2, "note": recoveryNote}})
	if err != nil {
		return nil, err
	}
	if err := rec.insert(ctx, tx, &lease, ev.Sequence); err != nil {
		return nil, err
	}
	return taskResult(ctx, tx, t.WorkspaceID, t.ID, now)
}

// recoveryRecord is the task_recoveries row of one recovery.
type recoveryRecord struct {
	task   Task
	sess   CoordinationSession
	action string
	note   string
	now    string
}

func (r recoveryRecord) insert(ctx context.Context, q TaskRecords, newLease *string, sequence int64) error {
	return q.InsertRecovery(ctx, LeaseRecovery{ID: "recovery_" + newUUID(), WorkspaceID: r.task.WorkspaceID, TaskID: r.task.ID,
		PriorLeaseID: *r.task.LeaseID, PriorSessionID: r.task.AssigneeSessionID, RecoveredBySessionID: r.sess.ID,
		Action: r.action, Note: r.note, PriorCheckpoint: r.task.BaseCheckpoint, NewLeaseID: newLease, RecoveredAt: r.now,
		EventSequence: sequence})
}
