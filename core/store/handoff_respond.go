package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// RespondInput accepts or declines an offer.
type RespondInput struct {
	WorkspaceID     string
	actor           string // legacy label, set from the Actor
	HandoffID       string
	IdempotencyKey  string
	ExpectedVersion int64 // of the task
	Response        string
	TTLSeconds      *int64
}

type respondFields struct {
	key, handoffID, response string
	version, ttl             int64
}

func normalizeRespond(in RespondInput) (respondFields, error) {
	f := respondFields{response: in.Response}
	if f.response != "accept" && f.response != "decline" {
		return f, collaberr.New(collaberr.InvalidHandoffResponse, "response must be accept or decline")
	}
	var err error
	if f.key, err = normalize.IdempotencyKey(in.IdempotencyKey); err != nil {
		return f, err
	}
	if f.handoffID, err = normalize.ID(in.HandoffID, "handoff_id"); err != nil {
		return f, err
	}
	if f.version, err = normalize.ExpectedVersion(in.ExpectedVersion); err != nil {
		return f, err
	}
	f.ttl, err = normalize.TTL(in.TTLSeconds)
	return f, err
}

func handoffExpired() error {
	return collaberr.New(collaberr.HandoffExpired, "The offer or the lease it came from has expired")
}

// RespondToHandoff answers an offer in legacy mode: only the named actor
// may respond; accepting moves the lease to them atomically.
func (s *Store) RespondToHandoff(ctx context.Context, who Actor, in RespondInput) (*answer.Of[HandoffAnswer], error) {
	if cred, ok := who.Session(); ok {
		return s.respondToHandoffAsSession(ctx, cred, in)
	}
	in.actor = who.Label()
	return s.respondToHandoffAsLabel(ctx, in)
}

// respondToHandoffAsLabel answers an offer in legacy mode.
func (s *Store) respondToHandoffAsLabel(ctx context.Context, in RespondInput) (*answer.Of[HandoffAnswer], error) {
	f, err := normalizeRespond(in)
	if err != nil {
		return nil, err
	}
	actor, err := normalize.Actor(in.actor)
	if err != nil {
		return nil, err
	}
	if ok, err := s.workspaceExists(ctx, in.WorkspaceID); err == nil && ok {
		if err := s.engine().Write(ctx, func(tx Tx) error {
			return s.reapElapsedHandoffs(ctx, tx, in.WorkspaceID, "", clockActor, s.nowISO())
		}); err != nil {
			return nil, err
		}
	}
	request := map[string]any{"workspace_id": in.WorkspaceID, "actor": actor, "handoff_id": f.handoffID, "idempotency_key": f.key,
		"expected_version": f.version, "response": f.response, "ttl_seconds": f.ttl}
	return mutateAsActor(ctx, s, legacyMutation[HandoffAnswer]{workspaceID: in.WorkspaceID, actor: actor, operation: "handoff.respond", key: f.key,
		request: request, apply: func(ctx context.Context, tx Tx) (*HandoffAnswer, error) {
			return s.applyLegacyResponse(ctx, tx, in.WorkspaceID, actor, f)
		}})
}

func (s *Store) applyLegacyResponse(ctx context.Context, tx Tx, wsID, actor string, f respondFields) (*HandoffAnswer, error) {
	now := s.nowISO()
	h, ok, err := findHandoff(ctx, tx, f.handoffID)
	if err != nil {
		return nil, err
	}
	if !ok || h.WorkspaceID != wsID {
		return nil, handoffNotFound(f.handoffID)
	}
	if h.ToActor != actor {
		return nil, collaberr.New(collaberr.HandoffNotRecipient, "Only the actor the offer names may respond")
	}
	t, err := respondableTask(ctx, tx, h, f.version, false, now)
	if err != nil {
		return nil, err
	}
	lease := leaseFields{taskID: t.ID, version: t.Version}
	if t.LeaseID != nil {
		lease.leaseID = *t.LeaseID
	}
	if _, err := requireLease(ctx, tx, wsID, lease, holder{actor: h.FromActor}, now); err != nil {
		return nil, err
	}
	who := holder{actor: actor}
	if f.response == "decline" {
		return s.declineHandoff(ctx, tx, h, t, who, now)
	}
	if err := resolveHandoff(ctx, tx, h, HandoffAccepted, now); err != nil {
		return nil, err
	}
	leaseID, expires := "lease_"+newUUID(), addSeconds(now, f.ttl)
	if err := tx.UpdateTask(ctx, t, transferred(t, Lease{ID: leaseID, ExpiresAt: expires, Assignee: actor}, now)); err != nil {
		return nil, err
	}
	payload := map[string]any{"task_id": t.ID, "from_actor": h.FromActor, "to_actor": h.ToActor, "lease_id": leaseID,
		"lease_expires_at": expires, "task_version": t.Version + 1}
	return s.handoffEvent(ctx, tx, h, t, who, journal.KindHandoffAccepted, payload, now)
}

// respondableTask checks that the offer is still pending and unexpired
// and that its task is at the version the responder read.
func respondableTask(ctx context.Context, q Tasks, h Handoff, version int64, session bool, now string) (Task, error) {
	if err := checkPending(h, session); err != nil {
		return Task{}, err
	}
	t, err := loadTaskAt(ctx, q, h.WorkspaceID, h.TaskID, version, now)
	if err != nil {
		return t, err
	}
	if now >= h.ExpiresAt || (t.LeaseExpiresAt != nil && now >= *t.LeaseExpiresAt) {
		return t, handoffExpired()
	}
	return t, nil
}

// checkPending refuses an offer that is no longer pending; the session
// plane also says which status it reached.
func checkPending(h Handoff, session bool) error {
	switch h.Status {
	case HandoffPending:
		return nil
	case HandoffExpired:
		e := collaberr.New(collaberr.HandoffExpired, "The offer is no longer pending: it expired")
		if session {
			e.With("status", h.Status)
		}
		return e
	default:
		return collaberr.New(collaberr.HandoffResolved, "This offer was already answered").With("status", h.Status)
	}
}

func (s *Store) declineHandoff(ctx context.Context, tx Tx, h Handoff, t Task, who holder, now string) (*HandoffAnswer, error) {
	if err := resolveHandoff(ctx, tx, h, HandoffDeclined, now); err != nil {
		return nil, err
	}
	if err := tx.UpdateTask(ctx, t, touched(t, now)); err != nil {
		return nil, err
	}
	return s.handoffEvent(ctx, tx, h, t, who, journal.KindHandoffDeclined, map[string]any{"task_id": t.ID, "task_version": t.Version + 1}, now)
}

func (s *Store) handoffEvent(ctx context.Context, tx Tx, h Handoff, t Task, who holder, typ journal.Kind, payload map[string]any, now string) (*HandoffAnswer, error) {
	if _, err := s.appendEvent(ctx, tx, t.WorkspaceID, newEvent{Type: typ, EntityID: h.ID, Actor: who.actor, SessionID: who.sessionID, Payload: payload}); err != nil {
		return nil, err
	}
	updated, _, err := findHandoff(ctx, tx, h.ID)
	if err != nil {
		return nil, err
	}
	task, err := loadTask(ctx, tx, t.WorkspaceID, t.ID, now)
	return &HandoffAnswer{Handoff: updated, Task: task}, err
}

// RespondToHandoffForSession answers an offer addressed to this session.
// Accepting observes the responder's worktree (outside the transaction)
// and moves the lease, with a fresh base checkpoint, to the responder.
func (s *Store) respondToHandoffAsSession(ctx context.Context, cred Credential, in RespondInput) (*answer.Of[HandoffAnswer], error) {
	f, err := normalizeRespond(in)
	if err != nil {
		return nil, err
	}
	request := map[string]any{"handoff_id": f.handoffID, "expected_version": f.version, "response": f.response, "ttl_seconds": f.ttl}
	sess, out, hit, err := sessionReceipt[HandoffAnswer](ctx, s, cred, "handoff.respond.v2", f.key, request)
	if err != nil || hit {
		return out, err
	}
	var prep prepared
	if f.response == "accept" {
		if prep, err = s.prepareSessionCheckpoint(ctx, sess); err != nil {
			return nil, err
		}
	}
	return mutateAsSession(ctx, s, sessionMutation[HandoffAnswer]{cred: cred, operation: "handoff.respond.v2", key: f.key, request: request,
		apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*HandoffAnswer, error) {
			return s.applySessionResponse(ctx, tx, sess, f, prep)
		}})
}

func (s *Store) applySessionResponse(ctx context.Context, tx Tx, sess CoordinationSession, f respondFields, prep prepared) (*HandoffAnswer, error) {
	now := s.nowISO()
	h, ok, err := findHandoff(ctx, tx, f.handoffID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, handoffNotFound(f.handoffID)
	}
	if h.WorkspaceID != sess.WorkspaceID || h.ToSessionID == nil || *h.ToSessionID != sess.ID {
		return nil, collaberr.New(collaberr.HandoffNotRecipient, "Only the session the offer names may respond")
	}
	t, err := respondableTask(ctx, tx, h, f.version, true, now)
	if err != nil {
		return nil, err
	}
	if t.Status != TaskClaimed || t.LeaseID == nil || t.AssigneeSessionID == nil || h.FromSessionID == nil || *t.AssigneeSessionID != *h.FromSessionID {
		return nil, collaberr.New(collaberr.HandoffSourceChanged, "The lease this offer came from has changed hands or ended")
	}
	who := holder{actor: sess.Actor, sessionID: &sess.ID}
	if f.response == "decline" {
		return s.declineHandoff(ctx, tx, h, t, who, now)
	}
	if err := prep.recheck(ctx, tx, sess.ID, now); err != nil {
		return nil, err
	}
	if err := prep.checkExpectedBase(t.ExpectedBaseSHA); err != nil {
		return nil, err
	}
	if err := resolveHandoff(ctx, tx, h, HandoffAccepted, now); err != nil {
		return nil, err
	}
	leaseID, expires := "lease_"+newUUID(), addSeconds(now, f.ttl)
	if err := tx.UpdateTask(ctx, t, transferred(t, prep.sessionLease(sess, leaseID, expires), now)); err != nil {
		return nil, err
	}
	payload := map[string]any{"task_id": t.ID, "from_session_id": *h.FromSessionID, "to_session_id": sess.ID, "lease_id": leaseID,
		"lease_expires_at": expires, "base_checkpoint": prep.rawCheckpoint(), "task_version": t.Version + 1}
	return s.handoffEvent(ctx, tx, h, t, who, journal.KindHandoffAccepted, payload, now)
}
