package store

import "context"

// Views are the reads that the read-only views (workspace status, the
// board, wake checks, the path guard) make besides tasks and events. Each
// list is never nil. Like every read, they see the snapshot of the
// transaction they run in.
type Views interface {
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
