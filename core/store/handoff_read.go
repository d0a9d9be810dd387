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
	offers, err := elapsedOffers(ctx, q, workspaceID, taskID, now)
	if err != nil {
		return err
	}
	for _, h := range offers {
		if err := s.expireHandoff(ctx, q, h, "offer_deadline_elapsed", actor, nil, now); err != nil {
			return err
		}
	}
	return nil
}
