package sqltx

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// ListWorkspaces reads every workspace row.
func (t *Tx) ListWorkspaces(ctx context.Context) ([]store.Workspace, error) {
	rows, err := t.QueryContext(ctx, "SELECT "+WorkspaceColumns+" FROM workspaces ORDER BY created_at, id")
	if err != nil {
		return nil, fmt.Errorf("list workspaces: %w", err)
	}
	defer rows.Close()
	out := []store.Workspace{}
	for rows.Next() {
		var w store.Workspace
		if err := rows.Scan(&w.ID, &w.EpochID, &w.RootPath, &w.RepositoryKey, &w.Name, &w.CreatedAt,
			&w.EventHeadSequence, &w.EventHeadHash); err != nil {
			return nil, fmt.Errorf("list workspaces: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// WorkspaceWorktrees reads a workspace's worktree rows.
func (t *Tx) WorkspaceWorktrees(ctx context.Context, workspaceID string) ([]store.Worktree, error) {
	rows, err := t.QueryContext(ctx, "SELECT "+WorktreeColumns+" FROM worktrees WHERE workspace_id = ? ORDER BY registered_at, id", workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	defer rows.Close()
	out := []store.Worktree{}
	for rows.Next() {
		w, err := ScanWorktree(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// ViewerTasks reads the tasks the viewer holds or reported complete.
func (t *Tx) ViewerTasks(ctx context.Context, workspaceID string, of store.Viewer) ([]store.TaskSummary, error) {
	var rows Rows
	var err error
	if of.SessionID != "" {
		rows, err = t.QueryContext(ctx, `SELECT id, title, status, lease_expires_at FROM tasks WHERE workspace_id = ?
AND (assignee_session_id = ? OR reported_by_session_id = ?) ORDER BY id`, workspaceID, of.SessionID, of.SessionID)
	} else {
		rows, err = t.QueryContext(ctx, `SELECT id, title, status, lease_expires_at FROM tasks WHERE workspace_id = ?
AND (assignee = ? OR reported_by = ?) ORDER BY id`, workspaceID, of.Actor, of.Actor)
	}
	if err != nil {
		return nil, fmt.Errorf("read wake tasks: %w", err)
	}
	defer rows.Close()
	out := []store.TaskSummary{}
	for rows.Next() {
		var s store.TaskSummary
		if err := rows.Scan(&s.ID, &s.Title, &s.Status, &s.LeaseExpiresAt); err != nil {
			return nil, fmt.Errorf("scan wake task: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// RepositoryAt finds the repository registered at a root path, worktrees
// first.
func (t *Tx) RepositoryAt(ctx context.Context, rootPath string) (string, bool, error) {
	var key string
	err := t.QueryRowContext(ctx, t.d.repositoryAt, rootPath, rootPath).Scan(&key)
	if err == sql.ErrNoRows {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("find the repository of %s: %w", rootPath, err)
	}
	return key, true, nil
}
