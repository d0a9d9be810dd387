package sqltx

import (
	"context"
	"database/sql"
	"fmt"

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

// Sessions lists a workspace's credential-bound sessions in (joined_at,
// id) order, only those in status when it is not empty.
func (t *Tx) Sessions(ctx context.Context, workspaceID string, status store.SessionStatus) ([]store.CoordinationSession, error) {
	if status == "" {
		return QuerySessions(ctx, t, "WHERE workspace_id = ? ORDER BY joined_at, id", workspaceID)
	}
	return QuerySessions(ctx, t, "WHERE workspace_id = ? AND status = ? ORDER BY joined_at, id", workspaceID, string(status))
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

// UpdateSession writes the columns in which after differs from before, to
// the row of before.ID; a change of generation is fenced by before's
// generation and status (store.Sessions.UpdateSession).
func (t *Tx) UpdateSession(ctx context.Context, before, after store.CoordinationSession) (bool, error) {
	set := SessionChanges(before, after)
	if set.Empty() {
		return true, nil
	}
	if after.Generation == before.Generation {
		if err := t.execLater(ctx, "UPDATE coordination_sessions SET "+set.Clause()+" WHERE id = ?",
			append(set.Args(), before.ID)...); err != nil {
			return false, fmt.Errorf("update session: %w", err)
		}
		return true, nil
	}
	res, err := t.ExecContext(ctx, "UPDATE coordination_sessions SET "+set.Clause()+
		" WHERE id = ? AND generation = ? AND status = ?", append(set.Args(), before.ID, before.Generation, string(before.Status))...)
	if err != nil {
		return false, fmt.Errorf("update session: %w", err)
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// SessionChanges is the assignment of every column in which after
// differs from before; the columns a session never changes (id,
// workspace, worktree, actor, role, parent, joined_at) are not compared.
func SessionChanges(before, after store.CoordinationSession) Assignments {
	var a Assignments
	a.Set("status", before.Status != after.Status, string(after.Status))
	a.Set("generation", before.Generation != after.Generation, after.Generation)
	a.Set("token_hash", before.TokenHash != after.TokenHash, after.TokenHash)
	a.Set("last_seen_at", before.LastSeenAt != after.LastSeenAt, after.LastSeenAt)
	a.Set("ended_at", !equalText(before.EndedAt, after.EndedAt), after.EndedAt)
	a.Set("cursor_epoch_id", before.Cursor.EpochID != after.Cursor.EpochID, after.Cursor.EpochID)
	a.Set("cursor_sequence", before.Cursor.Sequence != after.Cursor.Sequence, after.Cursor.Sequence)
	a.Set("cursor_hash", before.Cursor.Hash != after.Cursor.Hash, after.Cursor.Hash)
	a.Set("cursor_version", before.CursorVersion != after.CursorVersion, after.CursorVersion)
	a.Set("reset_generation", before.ResetGeneration != after.ResetGeneration, after.ResetGeneration)
	a.Set("cursor_recovery_required", before.CursorRecoveryRequired != after.CursorRecoveryRequired,
		flag(after.CursorRecoveryRequired))
	return a
}

// InsertCursorReset stores the audit record of a cursor reset.
func (t *Tx) InsertCursorReset(ctx context.Context, r store.CursorReset) error {
	if _, err := t.ExecContext(ctx, `INSERT INTO session_cursor_resets (id, session_id, from_epoch_id, from_sequence, from_hash,
to_epoch_id, to_sequence, to_hash, reason, reset_generation, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.SessionID, r.From.EpochID, r.From.Sequence, r.From.Hash, r.To.EpochID, r.To.Sequence, r.To.Hash,
		r.Reason, r.Generation, r.CreatedAt); err != nil {
		return fmt.Errorf("record cursor reset: %w", err)
	}
	return nil
}
