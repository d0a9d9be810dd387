package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// expireHandoff marks one pending offer expired and journals why.
func (s *Store) expireHandoff(ctx context.Context, q Tx, h Handoff, reason, actor string, sessionID *string, now string) error {
	if err := q.UpdateHandoff(ctx, h, resolved(h, HandoffExpired, now)); err != nil {
		return err
	}
	_, err := s.appendEvent(ctx, q, h.WorkspaceID, newEvent{
		Type: journal.KindHandoffExpired, EntityID: h.ID, Actor: actor, SessionID: sessionID,
		Payload: map[string]any{"task_id": h.TaskID, "reason": reason},
	})
	return err
}

// expireTaskHandoffs expires every pending offer of a task (on release,
// block, completion or lease expiry).
func (s *Store) expireTaskHandoffs(ctx context.Context, q Tx, workspaceID, taskID, reason, actor string, sessionID *string, now string) error {
	offers, err := pendingOf(ctx, q, workspaceID, taskID)
	if err != nil {
		return err
	}
	for _, h := range offers {
		if err := s.expireHandoff(ctx, q, h, reason, actor, sessionID, now); err != nil {
			return err
		}
	}
	return nil
}

// reapElapsedHandoffs expires pending offers whose deadline has passed.
// taskID narrows the sweep to one task when non-empty.
func (s *Store) reapElapsedHandoffs(ctx context.Context, q Tx, workspaceID, taskID, actor, now string) error {
	_, err := s.sweepOffers(ctx, q, workspaceID, taskID, actor, now)
	return err
}

// sweepOffers expires, in sweep order, the pending offers (of one task
// when taskID is not empty) whose deadline has passed, and returns the
// others: the offers still live at now, in sweep order. A poll shows its
// viewer's offers from them, so it reads pending offers once.
func (s *Store) sweepOffers(ctx context.Context, q Tx, workspaceID, taskID, actor, now string) ([]Handoff, error) {
	pending, err := pendingOf(ctx, q, workspaceID, taskID)
	if err != nil {
		return nil, err
	}
	live := []Handoff{}
	for _, h := range pending {
		if !offerElapsed(&h, now) {
			live = append(live, h)
			continue
		}
		if err := s.expireHandoff(ctx, q, h, "offer_deadline_elapsed", actor, nil, now); err != nil {
			return nil, err
		}
	}
	return live, nil
}
