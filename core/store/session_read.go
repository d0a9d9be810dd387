package store

import (
	"context"
	"database/sql"
	"fmt"
)

const sessionColumns = `id, workspace_id, worktree_id, actor, role, parent_session_id, status, generation, token_hash,
joined_at, last_seen_at, ended_at, cursor_epoch_id, cursor_sequence, cursor_hash, cursor_version, reset_generation,
cursor_recovery_required`

func scanSession(row rowScanner) (CoordinationSession, error) {
	var c CoordinationSession
	var recovery int64
	err := row.Scan(&c.ID, &c.WorkspaceID, &c.WorktreeID, &c.Actor, &c.Role, &c.ParentSessionID, &c.Status,
		&c.Generation, &c.tokenHash, &c.JoinedAt, &c.LastSeenAt, &c.EndedAt, &c.Cursor.EpochID, &c.Cursor.Sequence,
		&c.Cursor.Hash, &c.CursorVersion, &c.ResetGeneration, &recovery)
	c.CursorRecoveryRequired = recovery != 0
	return c, err
}

// findSession reads one credential-bound session by id.
func findSession(ctx context.Context, q querier, id string) (CoordinationSession, bool, error) {
	c, err := scanSession(q.QueryRowContext(ctx, "SELECT "+sessionColumns+" FROM coordination_sessions WHERE id = ?", id))
	if err == sql.ErrNoRows {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("read session: %w", err)
	}
	return c, true, nil
}

// activeSessions lists the workspace's active credential-bound sessions in
// (joined_at, id) order.
func activeSessions(ctx context.Context, q querier, workspaceID string) ([]CoordinationSession, error) {
	return querySessions(ctx, q, "WHERE workspace_id = ? AND status = 'active' ORDER BY joined_at, id", workspaceID)
}

// querySessions reads the credential-bound sessions that the rest of a
// query (a WHERE and an ORDER BY clause) selects; never nil.
func querySessions(ctx context.Context, q querier, rest string, args ...any) ([]CoordinationSession, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+sessionColumns+" FROM coordination_sessions "+rest, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []CoordinationSession{}
	for rows.Next() {
		c, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
