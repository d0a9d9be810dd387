package sqltx

import (
	"context"
	"fmt"
	"strings"

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
			return nil, fmt.Errorf("read handoffs: %w", err)
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

// PendingOffer is the condition of an offer still pending, spelled with
// its value so that SQLite's planner can read it through a partial index
// on pending offers (a bound parameter would not match the index's WHERE).
const PendingOffer = "status = 'pending'"

// Handoffs reads a workspace's offers matching the filter, in row order.
// The conditions come in handoffs_target_idx's column order
// (workspace_id, to_actor, status, expires_at), then the rest, so a
// filter naming to_actor and status reads through the index as the
// statements it replaced did; one naming the pending status without
// to_actor reads through the pending-offers index when the file has it.
func (t *Tx) Handoffs(ctx context.Context, workspaceID string, f store.HandoffFilter) ([]store.Handoff, error) {
	var where strings.Builder
	where.WriteString("workspace_id = ?")
	args := []any{workspaceID}
	for _, c := range []struct{ column, value string }{
		{"to_actor", f.ToActor}, {"status", string(f.Status)}, {"task_id", f.TaskID},
		{"to_session_id", f.ToSessionID}, {"from_actor", f.FromActor}, {"from_session_id", f.FromSessionID},
	} {
		switch {
		case c.column == "status" && c.value == string(store.HandoffPending):
			where.WriteString(" AND " + PendingOffer)
		case c.value != "":
			where.WriteString(" AND " + c.column + " = ?")
			args = append(args, c.value)
		}
	}
	where.WriteString(t.d.handoffsOrder)
	return QueryHandoffs(ctx, t, where.String(), args...)
}

// InsertHandoff stores a new offer.
func (t *Tx) InsertHandoff(ctx context.Context, h store.Handoff) error {
	if _, err := t.ExecContext(ctx, `INSERT INTO handoffs (id, workspace_id, task_id, from_actor, to_actor, summary, status,
offered_at, expires_at, resolved_at, from_session_id, to_session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		h.ID, h.WorkspaceID, h.TaskID, h.FromActor, h.ToActor, h.Summary, string(h.Status), h.OfferedAt, h.ExpiresAt,
		h.ResolvedAt, h.FromSessionID, h.ToSessionID); err != nil {
		return fmt.Errorf("insert handoff: %w", err)
	}
	return nil
}

// UpdateHandoff writes the columns of an offer that changed.
func (t *Tx) UpdateHandoff(ctx context.Context, before, after store.Handoff) error {
	set := HandoffChanges(before, after)
	if set.Empty() {
		return nil
	}
	if _, err := t.ExecContext(ctx, "UPDATE handoffs SET "+set.Clause()+" WHERE id = ?", append(set.Args(), before.ID)...); err != nil {
		return fmt.Errorf("update handoff %s: %w", before.ID, err)
	}
	return nil
}

// HandoffChanges is the assignment of every column in which after differs
// from before; only status and resolved_at ever change, so only they are
// compared.
func HandoffChanges(before, after store.Handoff) Assignments {
	var a Assignments
	a.Set("status", before.Status != after.Status, string(after.Status))
	a.Set("resolved_at", !equalText(before.ResolvedAt, after.ResolvedAt), after.ResolvedAt)
	return a
}
