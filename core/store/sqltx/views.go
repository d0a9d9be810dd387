package sqltx

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// WorkspaceHandoffs reads every offer of a workspace.
func (t *Tx) WorkspaceHandoffs(ctx context.Context, workspaceID string) ([]store.Handoff, error) {
	return QueryHandoffs(ctx, t, "workspace_id = ? ORDER BY offered_at DESC, id", workspaceID)
}

// LiveOffersTo reads the viewer's unexpired pending offers.
func (t *Tx) LiveOffersTo(ctx context.Context, workspaceID string, to store.Viewer, now string) ([]store.Handoff, error) {
	where, target := "to_actor = ?", to.Actor
	if to.SessionID != "" {
		where, target = "to_session_id = ?", to.SessionID
	}
	return QueryHandoffs(ctx, t, "workspace_id = ? AND "+where+
		" AND status = 'pending' AND expires_at > ? ORDER BY offered_at, id", workspaceID, target, now)
}

// PendingOffersTo reads the viewer's pending offers through the handoffs
// target index (to_actor leads it; a session's offers carry its actor
// label as to_actor too).
func (t *Tx) PendingOffersTo(ctx context.Context, workspaceID string, to store.Viewer) ([]store.OfferSummary, error) {
	query := `SELECT id, task_id, from_actor, summary, expires_at FROM handoffs WHERE workspace_id = ? AND to_actor = ?
AND status = 'pending' AND to_session_id = ? ORDER BY offered_at, id`
	args := []any{workspaceID, to.Actor, to.SessionID}
	if to.SessionID == "" {
		query = `SELECT id, task_id, from_actor, summary, expires_at FROM handoffs WHERE workspace_id = ? AND to_actor = ?
AND status = 'pending' AND to_session_id IS NULL ORDER BY offered_at, id`
		args = args[:2]
	}
	rows, err := t.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read pending offers: %w", err)
	}
	defer rows.Close()
	out := []store.OfferSummary{}
	for rows.Next() {
		var o store.OfferSummary
		if err := rows.Scan(&o.ID, &o.TaskID, &o.FromActor, &o.Summary, &o.ExpiresAt); err != nil {
			return nil, fmt.Errorf("scan pending offer: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// OwnOfferIDs reads the ids of the offers the viewer made.
func (t *Tx) OwnOfferIDs(ctx context.Context, workspaceID string, by store.Viewer) ([]string, error) {
	query, who := "SELECT id FROM handoffs WHERE workspace_id = ? AND from_session_id = ? ORDER BY id", by.SessionID
	if by.SessionID == "" {
		query, who = "SELECT id FROM handoffs WHERE workspace_id = ? AND from_actor = ? AND from_session_id IS NULL ORDER BY id", by.Actor
	}
	rows, err := t.QueryContext(ctx, query, workspaceID, who)
	if err != nil {
		return nil, fmt.Errorf("read own handoffs: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("scan own handoff: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}
