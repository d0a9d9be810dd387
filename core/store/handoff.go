package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// Notes recorded with every offer.
const (
	legacyOfferNote  = "An offer is an invitation; the coordination lease remains with the current holder until acceptance."
	sessionOfferNote = "The current session keeps its coordination lease until the target explicitly accepts."
)

// OfferInput offers a held task to another actor (legacy) or session.
type OfferInput struct {
	Lease       LeaseInput
	ToActor     *string
	ToSessionID *string
	Summary     string
	TTLSeconds  *int64
}

// OfferHandoff invites another party to take over a task the caller
// holds. The lease stays with the caller until the offer is accepted.
func (s *Store) OfferHandoff(ctx context.Context, who Actor, in OfferInput) (*answer.Of[HandoffAnswer], error) {
	lc, err := newLeaseCall(who, in.Lease)
	if err != nil {
		return nil, err
	}
	var target string
	if lc.cred != nil {
		if in.ToSessionID == nil {
			return nil, collaberr.New(collaberr.InvalidToSessionID, "to_session_id is required for a session handoff")
		}
		target, err = normalize.ID(*in.ToSessionID, "to_session_id")
	} else {
		if in.ToActor == nil {
			return nil, collaberr.New(collaberr.InvalidToActor, "to_actor is required in legacy mode")
		}
		target, err = normalize.Actor(*in.ToActor)
	}
	if err != nil {
		return nil, err
	}
	summary, err := normalize.Text(in.Summary, field.Summary)
	if err != nil {
		return nil, err
	}
	ttl, err := normalize.TTL(in.TTLSeconds)
	if err != nil {
		return nil, err
	}
	extra := map[string]any{"summary": summary, "ttl_seconds": ttl}
	if lc.cred != nil {
		extra["to_session_id"] = target
	} else {
		extra["to_actor"] = target
		if err := s.reapTaskOffers(ctx, lc.workspaceID, lc.f.taskID, lc.actor); err != nil {
			return nil, err
		}
	}
	change := leaseChange[HandoffAnswer]{operation: "handoff.offer", extra: extra,
		apply: func(ctx context.Context, tx Tx, t Task, h holder, now string) (*HandoffAnswer, error) {
			return s.insertOffer(ctx, tx, t, h, target, summary, ttl, now)
		}}
	if lc.cred != nil {
		// The reference judges the target session before the task, its
		// version and the lease: self, unknown, then ended or elsewhere.
		change.precheck = func(ctx context.Context, tx Tx, wsID string, h holder) error {
			return checkOfferTarget(ctx, tx, wsID, *h.sessionID, target, &Handoff{})
		}
	}
	return mutateLease(ctx, s, lc, change)
}

// reapTaskOffers expires elapsed offers of one task in a transaction of
// its own, as the offering actor.
func (s *Store) reapTaskOffers(ctx context.Context, wsID, taskID, actor string) error {
	if ok, err := s.workspaceExists(ctx, wsID); err != nil || !ok {
		return err
	}
	return s.engine().Write(ctx, func(tx Tx) error {
		return s.reapElapsedHandoffs(ctx, tx, wsID, taskID, actor, s.nowISO())
	})
}

func (s *Store) insertOffer(ctx context.Context, tx Tx, t Task, h holder, target, summary string, ttl int64, now string) (*HandoffAnswer, error) {
	offer := Handoff{ID: "handoff_" + newUUID(), WorkspaceID: t.WorkspaceID, TaskID: t.ID, FromActor: h.actor, ToActor: target,
		Summary: summary, Status: HandoffPending, OfferedAt: now, ExpiresAt: addSeconds(now, ttl)}
	if *t.LeaseExpiresAt < offer.ExpiresAt {
		offer.ExpiresAt = *t.LeaseExpiresAt
	}
	if h.session() {
		if err := checkOfferTarget(ctx, tx, t.WorkspaceID, *h.sessionID, target, &offer); err != nil {
			return nil, err
		}
	} else if target == h.actor {
		return nil, collaberr.New(collaberr.InvalidHandoff, "A handoff must go to a different actor")
	}
	pending, err := liveTaskOffers(ctx, tx, t.WorkspaceID, t.ID, now)
	if err != nil {
		return nil, err
	}
	if len(pending) > 0 {
		return nil, collaberr.New(collaberr.HandoffPending, "This task already has a pending handoff offer").With("handoff_id", pending[0].ID)
	}
	if err := tx.InsertHandoff(ctx, offer); err != nil {
		return nil, err
	}
	if err := tx.UpdateTask(ctx, t, touched(t, now)); err != nil {
		return nil, err
	}
	payload := map[string]any{"task_version": t.Version + 1}
	if h.session() {
		payload["handoff"], payload["note"] = handoffMap(offer), sessionOfferNote
	} else {
		payload["offer"], payload["note"] = handoffMap(offer), legacyOfferNote
	}
	if _, err := s.appendEvent(ctx, tx, t.WorkspaceID, newEvent{Type: journal.KindHandoffOffered, EntityID: offer.ID, Actor: h.actor,
		SessionID: h.sessionID, Payload: payload}); err != nil {
		return nil, err
	}
	task, err := loadTask(ctx, tx, t.WorkspaceID, t.ID, now)
	return &HandoffAnswer{Handoff: offer, Task: task}, err
}

// checkOfferTarget requires an active session of the same workspace other
// than the offerer, and fills the offer's session and label fields.
func checkOfferTarget(ctx context.Context, q Sessions, wsID, fromSession, target string, offer *Handoff) error {
	if target == fromSession {
		return collaberr.New(collaberr.InvalidHandoff, "A handoff must go to a different session")
	}
	to, ok, err := q.Session(ctx, target)
	if err != nil {
		return err
	}
	if !ok {
		return sessionNotFound(target)
	}
	if to.Status != SessionActive || to.WorkspaceID != wsID {
		return collaberr.New(collaberr.HandoffTargetUnavailable, "The target must be an active session of the same workspace")
	}
	from := fromSession
	offer.FromSessionID, offer.ToSessionID, offer.ToActor = &from, &to.ID, to.Actor
	return nil
}

func handoffMap(h Handoff) map[string]any {
	return map[string]any{"id": h.ID, "workspace_id": h.WorkspaceID, "task_id": h.TaskID, "from_actor": h.FromActor,
		"to_actor": h.ToActor, "summary": h.Summary, "status": string(h.Status), "offered_at": h.OfferedAt, "expires_at": h.ExpiresAt,
		"resolved_at": nullable(h.ResolvedAt), "from_session_id": nullable(h.FromSessionID), "to_session_id": nullable(h.ToSessionID)}
}

func findHandoff(ctx context.Context, q Handoffs, id string) (Handoff, bool, error) {
	return q.Handoff(ctx, id)
}

func handoffNotFound(id string) error {
	return collaberr.Newf(collaberr.HandoffNotFound, "Handoff '%s' was not found in this workspace", id)
}

// resolveHandoff stores an offer answered (or expired) at now.
func resolveHandoff(ctx context.Context, q Handoffs, h Handoff, status HandoffStatus, now string) error {
	return q.UpdateHandoff(ctx, h, resolved(h, status, now))
}
