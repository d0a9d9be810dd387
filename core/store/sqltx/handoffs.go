package sqltx

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// handoffColumns is the column list QueryHandoffs reads, in Handoff order.
const handoffColumns = "id, workspace_id, task_id, from_actor, to_actor, summary, status, offered_at, expires_at, resolved_at, from_session_id, to_session_id"

// QueryHandoffs selects the handoffs matching where (a SQL condition with
// args, and any ORDER BY); never nil.
func QueryHandoffs(ctx context.Context, q Runner, where string, args ...any) ([]store.Handoff, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+handoffColumns+" FROM handoffs WHERE "+where, args...)
	if err != nil {
		return nil, fmt.Errorf("read handoffs: %w", err)
	}
	defer rows.Close()
	out := []store.Handoff{}
	for rows.Next() {
		var h store.Handoff
		if err := rows.Scan(&h.ID, &h.WorkspaceID, &h.TaskID, &h.FromActor, &h.ToActor, &h.Summary, &h.Status,
			&h.OfferedAt, &h.ExpiresAt, &h.ResolvedAt, &h.FromSessionID, &h.ToSessionID); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// Handoff reads one offer.
func (t *Tx) Handoff(ctx context.Context, id string) (store.Handoff, bool, error) {
	list, err := QueryHandoffs(ctx, t, "id = ?", id)
	if err != nil || len(list) == 0 {
		return store.Handoff{}, false, err
	}
	return list[0], true, nil
}

// InsertHandoff stores a new pending offer.
func (t *Tx) InsertHandoff(ctx context.Context, h store.Handoff) error {
	if _, err := t.ExecContext(ctx, `INSERT INTO handoffs (id, workspace_id, task_id, from_actor, to_actor, summary, status,
offered_at, expires_at, resolved_at, from_session_id, to_session_id) VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, NULL, ?, ?)`,
		h.ID, h.WorkspaceID, h.TaskID, h.FromActor, h.ToActor, h.Summary, h.OfferedAt, h.ExpiresAt,
		h.FromSessionID, h.ToSessionID); err != nil {
		return fmt.Errorf("insert handoff: %w", err)
	}
	return nil
}

// ResolveHandoff sets an offer's status and resolution time.
func (t *Tx) ResolveHandoff(ctx context.Context, id string, status store.HandoffStatus, now string) error {
	if _, err := t.ExecContext(ctx, "UPDATE handoffs SET status = ?, resolved_at = ? WHERE id = ?", string(status), now, id); err != nil {
		return fmt.Errorf("resolve handoff: %w", err)
	}
	return nil
}

// taskOffersWhere selects a task's pending offers; the dialect appends the
// sweep order. The sweeps visit pending offers in the order the
// reference's do. Its queries carry no ORDER BY; SQLite walks
// handoffs_target_idx (workspace_id, to_actor, status, expires_at), ties
// by rowid, for both the workspace-wide and the one-task sweep. Stating
// that order (the dialect's sweepOrder, ties by its row-order column)
// keeps the journal the same whichever implementation swept.
const taskOffersWhere = "workspace_id = ? AND task_id = ? AND status = 'pending'"

// LiveTaskOffers lists a task's unexpired pending offers.
func (t *Tx) LiveTaskOffers(ctx context.Context, workspaceID, taskID, now string) ([]store.Handoff, error) {
	return QueryHandoffs(ctx, t, "workspace_id = ? AND task_id = ? AND status = 'pending' AND expires_at > ? ORDER BY offered_at, id",
		workspaceID, taskID, now)
}

// TaskOffersToSweep lists every pending offer of a task in sweep order.
func (t *Tx) TaskOffersToSweep(ctx context.Context, workspaceID, taskID string) ([]store.Handoff, error) {
	return QueryHandoffs(ctx, t, t.d.taskOffersSweep, workspaceID, taskID)
}

// ElapsedOffersToSweep lists the pending offers past their deadline.
func (t *Tx) ElapsedOffersToSweep(ctx context.Context, workspaceID, taskID, now string) ([]store.Handoff, error) {
	where := "workspace_id = ? AND status = 'pending' AND expires_at <= ?"
	args := []any{workspaceID, now}
	if taskID != "" {
		where += " AND task_id = ?"
		args = append(args, taskID)
	}
	return QueryHandoffs(ctx, t, where+t.d.sweepOrder, args...)
}

// OffersToSession lists the pending offers addressed to a session.
func (t *Tx) OffersToSession(ctx context.Context, workspaceID, sessionID string) ([]store.Handoff, error) {
	return QueryHandoffs(ctx, t, "workspace_id = ? AND to_session_id = ? AND status = 'pending' ORDER BY offered_at, id",
		workspaceID, sessionID)
}
