package store

import (
	"context"
	"sort"
)

// findSession reads one credential-bound session by id.
func findSession(ctx context.Context, q Sessions, id string) (CoordinationSession, bool, error) {
	return q.Session(ctx, id)
}

// activeSessions lists the workspace's active credential-bound sessions in
// (joined_at, id) order.
func activeSessions(ctx context.Context, tx Sessions, workspaceID string) ([]CoordinationSession, error) {
	return tx.Sessions(ctx, workspaceID, SessionActive)
}

// ActiveSessions lists the workspace's active credential-bound sessions
// in (joined_at, id) order, as collab_workspace_status's active_sessions.
func (s *Store) ActiveSessions(ctx context.Context, workspaceID string) ([]CoordinationSession, error) {
	var out []CoordinationSession
	err := s.readTx(ctx, func(tx Tx) error {
		var err error
		out, err = activeSessions(ctx, tx, workspaceID)
		return err
	})
	return out, err
}

// sessionsBySeen lists every credential-bound session of a workspace,
// ended ones included, as the board shows them: by status ("active"
// before "ended"), then last seen newest first, then id.
func sessionsBySeen(ctx context.Context, tx Sessions, workspaceID string) ([]CoordinationSession, error) {
	list, err := tx.Sessions(ctx, workspaceID, "")
	if err != nil {
		return nil, err
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		switch {
		case a.Status != b.Status:
			return a.Status < b.Status
		case a.LastSeenAt != b.LastSeenAt:
			return a.LastSeenAt > b.LastSeenAt
		}
		return a.ID < b.ID
	})
	return list, nil
}
