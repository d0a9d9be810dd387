package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/store/engine"
)

const sessionColumns = `id, workspace_id, worktree_id, actor, role, parent_session_id, status, generation, token_hash,
joined_at, last_seen_at, ended_at, cursor_epoch_id, cursor_sequence, cursor_hash, cursor_version, reset_generation,
cursor_recovery_required`

func scanSession(row interface{ Scan(dest ...any) error }) (engine.Session, error) {
	var c engine.Session
	var recovery int64
	err := row.Scan(&c.ID, &c.WorkspaceID, &c.WorktreeID, &c.Actor, &c.Role, &c.ParentSessionID, &c.Status,
		&c.Generation, &c.TokenHash, &c.JoinedAt, &c.LastSeenAt, &c.EndedAt, &c.Cursor.EpochID, &c.Cursor.Sequence,
		&c.Cursor.Hash, &c.CursorVersion, &c.ResetGeneration, &recovery)
	c.CursorRecoveryRequired = recovery != 0
	return c, err
}

// FindSession reads one credential-bound session by id.
func FindSession(ctx context.Context, q Querier, id string) (engine.Session, bool, error) {
	c, err := scanSession(q.QueryRowContext(ctx, "SELECT "+sessionColumns+" FROM coordination_sessions WHERE id = ?", id))
	if err == sql.ErrNoRows {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("read session: %w", err)
	}
	return c, true, nil
}

// ActiveSessions lists the workspace's active credential-bound sessions in
// (joined_at, id) order.
func (t *Tx) ActiveSessions(ctx context.Context, workspaceID string) ([]engine.Session, error) {
	return QuerySessions(ctx, t, "WHERE workspace_id = ? AND status = 'active' ORDER BY joined_at, id", workspaceID)
}

// QuerySessions reads the credential-bound sessions that the rest of a
// query (a WHERE and an ORDER BY clause) selects; never nil.
func QuerySessions(ctx context.Context, q Querier, rest string, args ...any) ([]engine.Session, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+sessionColumns+" FROM coordination_sessions "+rest, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []engine.Session{}
	for rows.Next() {
		c, err := scanSession(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// Session reads one credential-bound session by id.
func (t *Tx) Session(ctx context.Context, id string) (engine.Session, bool, error) {
	return FindSession(ctx, t, id)
}

// TouchSession records that the session was seen at now.
func (t *Tx) TouchSession(ctx context.Context, id, now string) error {
	_, err := t.ExecContext(ctx, "UPDATE coordination_sessions SET last_seen_at = ? WHERE id = ?", now, id)
	return err
}
