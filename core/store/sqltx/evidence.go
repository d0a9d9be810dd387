package sqltx

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// recordedQuery is Recorded's existence lookup for one kind: a point read
// through the key or unique index on the table's id (a task's key is
// workspace and id). The texts are the ones the engines always ran.
func recordedQuery(kind store.RecordKind) (string, bool) {
	switch kind {
	case store.RecordArtifact:
		return "SELECT 1 FROM artifacts WHERE workspace_id = ? AND id = ?", true
	case store.RecordEvent:
		return "SELECT 1 FROM events WHERE workspace_id = ? AND id = ?", true
	case store.RecordReport:
		return "SELECT 1 FROM reports WHERE workspace_id = ? AND id = ?", true
	case store.RecordTask:
		return "SELECT 1 FROM tasks WHERE workspace_id = ? AND id = ?", true
	}
	return "", false
}

// Recorded reports whether the workspace holds a record of kind with id.
func (t *Tx) Recorded(ctx context.Context, workspaceID string, kind store.RecordKind, id string) (bool, error) {
	query, ok := recordedQuery(kind)
	if !ok {
		return false, fmt.Errorf("no lookup for records of kind %q", kind)
	}
	var one int
	err := t.QueryRowContext(ctx, query, workspaceID, id).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up %s %s: %w", kind, id, err)
	}
	return true, nil
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
