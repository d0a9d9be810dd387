package sqltx

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

const sessionColumns = `id, workspace_id, worktree_id, actor, role, parent_session_id, status, generation, token_hash,
joined_at, last_seen_at, ended_at, cursor_epoch_id, cursor_sequence, cursor_hash, cursor_version, reset_generation,
cursor_recovery_required`

func scanSession(row interface{ Scan(dest ...any) error }) (store.CoordinationSession, error) {
	var c store.CoordinationSession
	var recovery int64
	err := row.Scan(&c.ID, &c.WorkspaceID, &c.WorktreeID, &c.Actor, &c.Role, &c.ParentSessionID, &c.Status,
		&c.Generation, &c.TokenHash, &c.JoinedAt, &c.LastSeenAt, &c.EndedAt, &c.Cursor.EpochID, &c.Cursor.Sequence,
		&c.Cursor.Hash, &c.CursorVersion, &c.ResetGeneration, &recovery)
	c.CursorRecoveryRequired = recovery != 0
	return c, err
}

// FindSession reads one credential-bound session by id.
func FindSession(ctx context.Context, q Runner, id string) (store.CoordinationSession, bool, error) {
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
func (t *Tx) ActiveSessions(ctx context.Context, workspaceID string) ([]store.CoordinationSession, error) {
	return QuerySessions(ctx, t, "WHERE workspace_id = ? AND status = 'active' ORDER BY joined_at, id", workspaceID)
}

// QuerySessions reads the credential-bound sessions that the rest of a
// query (a WHERE and an ORDER BY clause) selects; never nil.
func QuerySessions(ctx context.Context, q Runner, rest string, args ...any) ([]store.CoordinationSession, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+sessionColumns+" FROM coordination_sessions "+rest, args...)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out := []store.CoordinationSession{}
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
func (t *Tx) Session(ctx context.Context, id string) (store.CoordinationSession, bool, error) {
	return FindSession(ctx, t, id)
}

// TouchSession records that the session was seen at now.
func (t *Tx) TouchSession(ctx context.Context, id, now string) error {
	return t.execLater(ctx, "UPDATE coordination_sessions SET last_seen_at = ? WHERE id = ?", now, id)
}

// InsertSession stores a new active session at generation 1.
func (t *Tx) InsertSession(ctx context.Context, n store.NewSession) error {
	_, err := t.ExecContext(ctx, `INSERT INTO coordination_sessions (id, workspace_id, worktree_id, actor, role,
parent_session_id, status, generation, token_hash, joined_at, last_seen_at, ended_at, cursor_epoch_id, cursor_sequence,
cursor_hash, cursor_version, reset_generation, cursor_recovery_required)
VALUES (?, ?, ?, ?, ?, ?, 'active', 1, ?, ?, ?, NULL, ?, 0, ?, 0, 0, 0)`,
		n.ID, n.WorkspaceID, n.WorktreeID, n.Actor, n.Role, n.ParentSessionID, n.TokenHash, n.JoinedAt, n.JoinedAt,
		n.Cursor.EpochID, n.Cursor.Hash)
	if err != nil {
		return fmt.Errorf("insert session: %w", err)
	}
	return nil
}

// AdvanceGeneration fences older holders of a session's credential.
func (t *Tx) AdvanceGeneration(ctx context.Context, id string, from int64, recoveryRequired bool, now string) (bool, error) {
	flag := 0
	if recoveryRequired {
		flag = 1
	}
	res, err := t.ExecContext(ctx, `UPDATE coordination_sessions SET generation = generation + 1, last_seen_at = ?,
cursor_recovery_required = ? WHERE id = ? AND generation = ? AND status = 'active'`, now, flag, id, from)
	if err != nil {
		return false, fmt.Errorf("resume session: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// EndSession ends a session for good.
func (t *Tx) EndSession(ctx context.Context, id, tokenHash, now string) error {
	if _, err := t.ExecContext(ctx, `UPDATE coordination_sessions SET status = 'ended', ended_at = ?, last_seen_at = ?,
generation = generation + 1, token_hash = ? WHERE id = ?`, now, now, tokenHash, id); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// MoveCursor moves a session's cursor.
func (t *Tx) MoveCursor(ctx context.Context, id string, to journal.Anchor, now string) error {
	if err := t.execLater(ctx, `UPDATE coordination_sessions SET cursor_epoch_id = ?, cursor_sequence = ?, cursor_hash = ?,
cursor_version = cursor_version + 1, last_seen_at = ? WHERE id = ?`, to.EpochID, to.Sequence, to.Hash, now, id); err != nil {
		return fmt.Errorf("move cursor: %w", err)
	}
	return nil
}

// ResetCursor records and applies an audited cursor reset.
func (t *Tx) ResetCursor(ctx context.Context, r store.CursorReset) error {
	if _, err := t.ExecContext(ctx, `INSERT INTO session_cursor_resets (id, session_id, from_epoch_id, from_sequence, from_hash,
to_epoch_id, to_sequence, to_hash, reason, reset_generation, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.SessionID, r.From.EpochID, r.From.Sequence, r.From.Hash, r.To.EpochID, r.To.Sequence, r.To.Hash,
		r.Reason, r.Generation, r.CreatedAt); err != nil {
		return fmt.Errorf("record cursor reset: %w", err)
	}
	if _, err := t.ExecContext(ctx, `UPDATE coordination_sessions SET cursor_epoch_id = ?, cursor_sequence = ?, cursor_hash = ?,
cursor_version = cursor_version + 1, reset_generation = ?, last_seen_at = ?, cursor_recovery_required = 0 WHERE id = ?`,
		r.To.EpochID, r.To.Sequence, r.To.Hash, r.Generation, r.CreatedAt, r.SessionID); err != nil {
		return fmt.Errorf("reset cursor: %w", err)
	}
	return nil
}

// LiveLeases lists the tasks whose unexpired lease the session holds.
func (t *Tx) LiveLeases(ctx context.Context, sessionID, now string) ([]string, error) {
	rows, err := t.QueryContext(ctx, `SELECT id FROM tasks WHERE status = 'claimed' AND assignee_session_id = ?
AND lease_expires_at > ? ORDER BY id`, sessionID, now)
	if err != nil {
		return nil, fmt.Errorf("read leases: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
