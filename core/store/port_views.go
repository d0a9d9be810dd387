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
	// WorkspaceHandoffs lists every offer of a workspace, whatever its
	// status, by offered_at newest first, then id.
	WorkspaceHandoffs(ctx context.Context, workspaceID string) ([]Handoff, error)
	// LiveOffersTo lists the pending offers of a workspace addressed to
	// one viewer whose deadline is after now, by (offered_at, id): offers
	// to the session when to.SessionID is not empty, else offers whose
	// to_actor is to.Actor.
	LiveOffersTo(ctx context.Context, workspaceID string, to Viewer, now string) ([]Handoff, error)
	// PendingOffersTo lists the pending offers of a workspace addressed to
	// one viewer, however old, by (offered_at, id): offers whose to_actor
	// is to.Actor and which name the session when to.SessionID is not
	// empty, or name no session when it is empty.
	PendingOffersTo(ctx context.Context, workspaceID string, to Viewer) ([]OfferSummary, error)
	// OwnOfferIDs lists, in id order, the ids of the offers of a
	// workspace that the viewer made: from the session when by.SessionID
	// is not empty, else from the actor without a session.
	OwnOfferIDs(ctx context.Context, workspaceID string, by Viewer) ([]string, error)
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

// OfferSummary is what a wake check shows of a pending handoff offer.
type OfferSummary struct {
	ID, TaskID, FromActor, Summary, ExpiresAt string
}

// TaskSummary is what a wake check shows of a task that belongs to the
// viewer. Status is the stored status.
type TaskSummary struct {
	ID             string
	Title          string
	Status         string
	LeaseExpiresAt *string
}
