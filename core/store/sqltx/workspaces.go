package sqltx

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// TouchWorktree records the latest observed Git facts of a worktree.
func TouchWorktree(ctx context.Context, q Runner, worktreeID string, cp store.WorktreeFacts, now string) error {
	_, err := q.ExecContext(ctx, "UPDATE worktrees SET branch = ?, head_sha = ?, dirty = ?, last_seen_at = ? WHERE id = ?",
		cp.Branch, cp.HeadSHA, NullableBool(cp.Dirty), now, worktreeID)
	if err != nil {
		return fmt.Errorf("touch worktree: %w", err)
	}
	return nil
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

// WorktreeByRoot reads the worktree registered at root.
func WorktreeByRoot(ctx context.Context, q Runner, root string) (store.Worktree, bool, error) {
	w, err := ScanWorktree(q.QueryRowContext(ctx, "SELECT "+WorktreeColumns+" FROM worktrees WHERE root_path = ?", root))
	if err == sql.ErrNoRows {
		return w, false, nil
	}
	if err != nil {
		return w, false, fmt.Errorf("read worktree: %w", err)
	}
	return w, true, nil
}

// WorktreeByID reads one worktree.
func WorktreeByID(ctx context.Context, q Runner, id string) (store.Worktree, bool, error) {
	w, err := ScanWorktree(q.QueryRowContext(ctx, "SELECT "+WorktreeColumns+" FROM worktrees WHERE id = ?", id))
	if err == sql.ErrNoRows {
		return w, false, nil
	}
	if err != nil {
		return w, false, fmt.Errorf("read worktree: %w", err)
	}
	return w, true, nil
}

// WorkspaceColumns is the column list of a workspace row, in Workspace order.
const WorkspaceColumns = "id, epoch_id, root_path, repository_key, name, created_at, event_head_sequence, event_head_hash"

// FindWorkspace reads one workspace.
func FindWorkspace(ctx context.Context, q Runner, id string) (store.Workspace, bool, error) {
	var w store.Workspace
	err := q.QueryRowContext(ctx, "SELECT "+WorkspaceColumns+" FROM workspaces WHERE id = ?", id).
		Scan(&w.ID, &w.EpochID, &w.RootPath, &w.RepositoryKey, &w.Name, &w.CreatedAt, &w.EventHeadSequence, &w.EventHeadHash)
	if err == sql.ErrNoRows {
		return w, false, nil
	}
	if err != nil {
		return w, false, fmt.Errorf("read workspace: %w", err)
	}
	return w, true, nil
}

// Workspace reads one workspace.
func (t *Tx) Workspace(ctx context.Context, id string) (store.Workspace, bool, error) {
	return FindWorkspace(ctx, t, id)
}

// WorkspaceForRepository returns the earliest workspace of a repository.
func (t *Tx) WorkspaceForRepository(ctx context.Context, key string) (string, bool, error) {
	var id string
	err := t.QueryRowContext(ctx, "SELECT id FROM workspaces WHERE repository_key = ? ORDER BY created_at, id LIMIT 1", key).Scan(&id)
	if err == sql.ErrNoRows {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read workspace of repository: %w", err)
	}
	return id, true, nil
}

// WorktreeByRoot reads the worktree registered at root.
func (t *Tx) WorktreeByRoot(ctx context.Context, root string) (store.Worktree, bool, error) {
	return WorktreeByRoot(ctx, t, root)
}

// WorktreeByID reads one worktree.
func (t *Tx) WorktreeByID(ctx context.Context, id string) (store.Worktree, bool, error) {
	return WorktreeByID(ctx, t, id)
}

// TouchWorktree records the Git facts last observed in a worktree.
func (t *Tx) TouchWorktree(ctx context.Context, id string, w store.WorktreeFacts, now string) error {
	return TouchWorktree(ctx, t, id, w, now)
}

// CreateWorkspace stores a new workspace with an empty journal.
func (t *Tx) CreateWorkspace(ctx context.Context, w store.NewWorkspace) error {
	if err := t.insertRepository(ctx, w.RepositoryKey, w.CreatedAt); err != nil {
		return err
	}
	if _, err := t.ExecContext(ctx, `INSERT INTO workspaces (id, epoch_id, root_path, name, created_at, event_head_sequence,
event_head_hash, repository_key) VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
		w.ID, w.EpochID, w.RootPath, w.Name, w.CreatedAt, journal.GenesisHash, w.RepositoryKey); err != nil {
		return fmt.Errorf("insert workspace: %w", err)
	}
	return nil
}

// insertRepository registers a repository unless it is known already.
func (t *Tx) insertRepository(ctx context.Context, key, now string) error {
	if _, err := t.ExecContext(ctx, t.d.insertRepository, key, now); err != nil {
		return fmt.Errorf("insert repository: %w", err)
	}
	return nil
}
