package store

import (
	"context"

	"github.com/agenttool/collab/core/gitstate"
)

// The reads and writes of worktree and workspace rows that carry a rule:
// what a touch changes, and which of a repository's workspaces count.

// touchWorktree records the Git state observed in a worktree at now: its
// branch, head and dirty flag as cp has them, and the time it was seen.
// Identity and registration stay as they are.
func touchWorktree(ctx context.Context, tx Workspaces, wt Worktree, cp gitstate.Checkpoint, now string) error {
	after := wt
	after.Branch, after.HeadSHA, after.Dirty, after.LastSeenAt = cp.Branch, cp.HeadSHA, cp.Dirty, now
	return tx.UpdateWorktree(ctx, wt, after)
}

// worktreeByID reads one worktree by its id.
func worktreeByID(ctx context.Context, q Workspaces, id string) (Worktree, bool, error) {
	return q.Worktree(ctx, WorktreeKey{ID: id})
}

// repositoryWorkspaces lists a repository's workspaces in (created_at, id)
// order, the earliest first; a repository without a key has none.
func repositoryWorkspaces(ctx context.Context, q Workspaces, key string) ([]Workspace, error) {
	if key == "" {
		return []Workspace{}, nil
	}
	return q.Workspaces(ctx, WorkspaceFilter{RepositoryKey: key})
}

// repositoryAt is the key of the repository a root path belongs to: that
// of the worktree registered at the path, or failing that of the
// workspace rooted there; found is false when neither exists.
func repositoryAt(ctx context.Context, q Workspaces, rootPath string) (key string, found bool, err error) {
	if rootPath == "" {
		return "", false, nil
	}
	wt, found, err := q.Worktree(ctx, WorktreeKey{RootPath: rootPath})
	if err != nil || found {
		return wt.RepositoryKey, found, err
	}
	ws, err := q.Workspaces(ctx, WorkspaceFilter{RootPath: rootPath})
	if err != nil || len(ws) == 0 {
		return "", false, err
	}
	return ws[0].RepositoryKey, true, nil
}
