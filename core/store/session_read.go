package store

import (
	"context"
)

// findSession reads one credential-bound session by id.
func findSession(ctx context.Context, q Sessions, id string) (CoordinationSession, bool, error) {
	return q.Session(ctx, id)
}

// activeSessions lists the workspace's active credential-bound sessions in
// (joined_at, id) order.
func activeSessions(ctx context.Context, tx Sessions, workspaceID string) ([]CoordinationSession, error) {
	return tx.ActiveSessions(ctx, workspaceID)
}
