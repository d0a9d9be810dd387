package store

import (
	"context"

	"github.com/agenttool/collab/core/store/engine"
)

// findSession reads one credential-bound session by id.
func findSession(ctx context.Context, q engine.Sessions, id string) (CoordinationSession, bool, error) {
	return q.Session(ctx, id)
}

// activeSessions lists the workspace's active credential-bound sessions in
// (joined_at, id) order.
func activeSessions(ctx context.Context, tx engine.Sessions, workspaceID string) ([]CoordinationSession, error) {
	return tx.ActiveSessions(ctx, workspaceID)
}
