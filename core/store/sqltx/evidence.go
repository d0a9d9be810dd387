package sqltx

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

// rowExists reports whether query returns a row.
func (t *Tx) rowExists(ctx context.Context, query string, args ...any) (bool, error) {
	var one int
	err := t.QueryRowContext(ctx, query, args...).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up row: %w", err)
	}
	return true, nil
}

// ArtifactRecorded reports whether the workspace has the artifact.
func (t *Tx) ArtifactRecorded(ctx context.Context, workspaceID, id string) (bool, error) {
	return t.rowExists(ctx, "SELECT 1 FROM artifacts WHERE workspace_id = ? AND id = ?", workspaceID, id)
}

// EventRecorded reports whether the workspace's journal has the event.
func (t *Tx) EventRecorded(ctx context.Context, workspaceID, id string) (bool, error) {
	return t.rowExists(ctx, "SELECT 1 FROM events WHERE workspace_id = ? AND id = ?", workspaceID, id)
}

// ReportRecorded reports whether the workspace has the report.
func (t *Tx) ReportRecorded(ctx context.Context, workspaceID, id string) (bool, error) {
	return t.rowExists(ctx, "SELECT 1 FROM reports WHERE workspace_id = ? AND id = ?", workspaceID, id)
}

// TaskRecorded reports whether the workspace has the task.
func (t *Tx) TaskRecorded(ctx context.Context, workspaceID, id string) (bool, error) {
	return t.rowExists(ctx, "SELECT 1 FROM tasks WHERE workspace_id = ? AND id = ?", workspaceID, id)
}

// RecordedCheckpoints lists the checkpoints stored on the workspace's
// tasks, in the order the dialect's statement yields them (the seam
// promises none), each task's base before its result.
func (t *Tx) RecordedCheckpoints(ctx context.Context, workspaceID string) ([]json.RawMessage, error) {
	rows, err := t.QueryContext(ctx, t.d.recordedCheckpoints, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("read task checkpoints: %w", err)
	}
	defer rows.Close()
	out := []json.RawMessage{}
	for rows.Next() {
		var base, result sql.NullString
		if err := rows.Scan(&base, &result); err != nil {
			return nil, fmt.Errorf("read task checkpoint: %w", err)
		}
		for _, cp := range []sql.NullString{base, result} {
			if cp.Valid {
				out = append(out, json.RawMessage(cp.String))
			}
		}
	}
	return out, rows.Err()
}
