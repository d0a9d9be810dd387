package store

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/journal"
)

const handoffColumns = "id, workspace_id, task_id, from_actor, to_actor, summary, status, offered_at, expires_at, resolved_at, from_session_id, to_session_id"

// queryHandoffs selects handoffs matching where (a SQL condition with args).
func queryHandoffs(ctx context.Context, q querier, where string, args ...any) ([]Handoff, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+handoffColumns+" FROM handoffs WHERE "+where, args...)
	if err != nil {
		return nil, fmt.Errorf("read handoffs: %w", err)
	}
	defer rows.Close()
	out := []Handoff{}
	for rows.Next() {
		var h Handoff
		if err := rows.Scan(&h.ID, &h.WorkspaceID, &h.TaskID, &h.FromActor, &h.ToActor, &h.Summary, &h.Status,
			&h.OfferedAt, &h.ExpiresAt, &h.ResolvedAt, &h.FromSessionID, &h.ToSessionID); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// sweepOrder is the order in which the reference's sweeps visit pending
// offers. Its queries carry no ORDER BY; SQLite walks handoffs_target_idx
// (workspace_id, to_actor, status, expires_at), ties by rowid, for both
// the workspace-wide and the one-task sweep. Stating that order keeps the
// journal the same whichever implementation swept.
const sweepOrder = " ORDER BY to_actor, status, expires_at, rowid"

// expireHandoff marks one pending offer expired and journals why.
func (s *Store) expireHandoff(ctx context.Context, q *Tx, h Handoff, reason, actor string, sessionID *string, now string) error {
	if _, err := q.ExecContext(ctx, "UPDATE handoffs SET status = 'expired', resolved_at = ? WHERE id = ?", now, h.ID); err != nil {
		return fmt.Errorf("expire handoff: %w", err)
	}
	_, err := s.appendEvent(ctx, q, h.WorkspaceID, newEvent{
		Type: journal.KindHandoffExpired, EntityID: h.ID, Actor: actor, SessionID: sessionID,
		Payload: map[string]any{"task_id": h.TaskID, "reason": reason},
	})
	return err
}

// expireTaskHandoffs expires every pending offer of a task (on release,
// block, completion or lease expiry).
func (s *Store) expireTaskHandoffs(ctx context.Context, q *Tx, workspaceID, taskID, reason, actor string, sessionID *string, now string) error {
	offers, err := queryHandoffs(ctx, q, "workspace_id = ? AND task_id = ? AND status = 'pending'"+sweepOrder, workspaceID, taskID)
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
func (s *Store) reapElapsedHandoffs(ctx context.Context, q *Tx, workspaceID, taskID, actor, now string) error {
	where := "workspace_id = ? AND status = 'pending' AND expires_at <= ?"
	args := []any{workspaceID, now}
	if taskID != "" {
		where += " AND task_id = ?"
		args = append(args, taskID)
	}
	offers, err := queryHandoffs(ctx, q, where+sweepOrder, args...)
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
