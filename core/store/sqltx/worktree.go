package sqltx

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// InsertWorktree records a new worktree row of workspace wsID.
func InsertWorktree(ctx context.Context, q Runner, wsID string, w store.WorktreeFacts, now string) error {
	_, err := q.ExecContext(ctx, `INSERT INTO worktrees (id, workspace_id, repository_key, root_path, git_common_dir_hash,
fingerprint, branch, head_sha, dirty, registered_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		w.WorktreeID, wsID, w.RepositoryKey, w.RootPath, w.GitCommonDirHash, w.Fingerprint, w.Branch, w.HeadSHA,
		NullableBool(w.Dirty), now, now)
	if err != nil {
		return fmt.Errorf("insert worktree: %w", err)
	}
	return nil
}

// NullableBool stores an optional flag as SQLite stores booleans: 1, 0 or NULL.
func NullableBool(b *bool) any {
	if b == nil {
		return nil
	}
	if *b {
		return 1
	}
	return 0
}

// AddWorktree registers a worktree (and its repository when new).
func (t *Tx) AddWorktree(ctx context.Context, workspaceID string, w store.WorktreeFacts, now string) error {
	if err := t.insertRepository(ctx, w.RepositoryKey, now); err != nil {
		return err
	}
	return InsertWorktree(ctx, t, workspaceID, w, now)
}

// WorktreeColumns is the column list ScanWorktree reads, in order.
const WorktreeColumns = "id, workspace_id, root_path, repository_key, git_common_dir_hash, branch, head_sha, dirty, registered_at, last_seen_at, fingerprint"

// ScanWorktree reads one row selected with WorktreeColumns.
func ScanWorktree(row interface{ Scan(...any) error }) (store.Worktree, error) {
	var w store.Worktree
	var dirty sql.NullInt64
	err := row.Scan(&w.ID, &w.WorkspaceID, &w.RootPath, &w.RepositoryKey, &w.GitCommonDirHash, &w.Branch, &w.HeadSHA,
		&dirty, &w.RegisteredAt, &w.LastSeenAt, &w.Fingerprint)
	if dirty.Valid {
		d := dirty.Int64 != 0
		w.Dirty = &d
	}
	return w, err
}

// Worktree reads the worktree k names, by its primary key or by the
// unique root_path.
func (t *Tx) Worktree(ctx context.Context, k store.WorktreeKey) (store.Worktree, bool, error) {
	where, arg := "id = ?", k.ID
	if k.ID == "" {
		where, arg = "root_path = ?", k.RootPath
	}
	w, err := ScanWorktree(t.QueryRowContext(ctx, "SELECT "+WorktreeColumns+" FROM worktrees WHERE "+where, arg))
	if err == sql.ErrNoRows {
		return w, false, nil
	}
	if err != nil {
		return w, false, fmt.Errorf("read worktree: %w", err)
	}
	return w, true, nil
}

// Worktrees reads a workspace's worktree rows.
func (t *Tx) Worktrees(ctx context.Context, workspaceID string) ([]store.Worktree, error) {
	rows, err := t.QueryContext(ctx, "SELECT "+WorktreeColumns+" FROM worktrees WHERE workspace_id = ? ORDER BY registered_at, id", workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	defer rows.Close()
	out := []store.Worktree{}
	for rows.Next() {
		w, err := ScanWorktree(rows)
		if err != nil {
			return nil, fmt.Errorf("list worktrees: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// UpdateWorktree writes the columns in which after differs from before.
func (t *Tx) UpdateWorktree(ctx context.Context, before, after store.Worktree) error {
	set := WorktreeChanges(before, after)
	if set.Empty() {
		return nil
	}
	if _, err := t.ExecContext(ctx, "UPDATE worktrees SET "+set.Clause()+" WHERE id = ?", append(set.Args(), before.ID)...); err != nil {
		return fmt.Errorf("update worktree: %w", err)
	}
	return nil
}

// WorktreeChanges is the assignment of every column in which after
// differs from before; the columns a worktree never changes (its
// identity and registration) are not compared.
func WorktreeChanges(before, after store.Worktree) Assignments {
	var a Assignments
	a.Set("branch", !equalText(before.Branch, after.Branch), after.Branch)
	a.Set("head_sha", !equalText(before.HeadSHA, after.HeadSHA), after.HeadSHA)
	a.Set("dirty", !equalFlag(before.Dirty, after.Dirty), NullableBool(after.Dirty))
	a.Set("last_seen_at", before.LastSeenAt != after.LastSeenAt, after.LastSeenAt)
	return a
}

// equalFlag reports whether two nullable flags hold the same value.
func equalFlag(a, b *bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}
