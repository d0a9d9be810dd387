package sqltx

import (
	"context"
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
