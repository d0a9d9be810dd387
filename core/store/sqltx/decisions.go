package sqltx

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// InsertDecision stores a legacy decision.
func (t *Tx) InsertDecision(ctx context.Context, d store.Decision) error {
	_, err := t.ExecContext(ctx, `INSERT INTO decisions (id, workspace_id, topic, decision, rationale, recorded_by,
recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)`, d.ID, d.WorkspaceID, d.Topic, d.Decision, d.Rationale, d.RecordedBy, d.RecordedAt)
	if err != nil {
		return fmt.Errorf("insert decision: %w", err)
	}
	return nil
}

// Decisions lists the workspace's newest decisions, through
// decisions_workspace_idx.
func (t *Tx) Decisions(ctx context.Context, workspaceID string, limit int) ([]store.Decision, error) {
	rows, err := t.QueryContext(ctx, `SELECT id, workspace_id, topic, decision, rationale, recorded_by, recorded_at
FROM decisions WHERE workspace_id = ? ORDER BY recorded_at DESC, id DESC LIMIT ?`, workspaceID, t.d.limit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("list decisions: %w", err)
	}
	defer rows.Close()
	out := []store.Decision{}
	for rows.Next() {
		var d store.Decision
		if err := rows.Scan(&d.ID, &d.WorkspaceID, &d.Topic, &d.Decision, &d.Rationale, &d.RecordedBy, &d.RecordedAt); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
