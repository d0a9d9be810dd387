package store

import "context"

// Views are the reads that the read-only views (workspace status, the
// board, wake checks, the path guard) make besides tasks and events. Each
// list is never nil. Like every read, they see the snapshot of the
// transaction they run in.
type Views interface {
	// ListWorkspaces lists every workspace, heads included, in
	// (created_at, id) order.
	ListWorkspaces(ctx context.Context) ([]Workspace, error)
	// WorkspaceWorktrees lists a workspace's registered worktrees in
	// (registered_at, id) order.
	WorkspaceWorktrees(ctx context.Context, workspaceID string) ([]Worktree, error)
	// ViewerTasks lists, in id order, the tasks of a workspace that the
	// viewer holds (assignee) or reported complete: as the session when
	// of.SessionID is not empty, else as the actor label.
	ViewerTasks(ctx context.Context, workspaceID string, of Viewer) ([]TaskSummary, error)
	// RepositoryAt returns the repository key of the worktree registered
	// at rootPath, or failing that of the workspace rooted there; found is
	// false when neither exists.
	RepositoryAt(ctx context.Context, rootPath string) (key string, found bool, err error)
}

// Viewer is who a view is for: a credential-bound session (SessionID set,
// Actor its label) or a legacy actor label (SessionID empty).
type Viewer struct {
	SessionID string
	Actor     string
}

// TaskSummary is what a wake check shows of a task that belongs to the
// viewer. Status is the stored status.
type TaskSummary struct {
	ID             string
	Title          string
	Status         string
	LeaseExpiresAt *string
}
