package store

import (
	"context"
)

// workspaceIn reads one workspace through the engine; an unknown
// workspace is refused with workspace_not_found.
func workspaceIn(ctx context.Context, q Workspaces, id string) (Workspace, error) {
	w, found, err := q.Workspace(ctx, id)
	if err == nil && !found {
		err = workspaceNotFound(id)
	}
	return w, err
}

// workspaceExists reports, from a read snapshot of its own, whether the
// workspace exists.
func (s *Store) workspaceExists(ctx context.Context, id string) (bool, error) {
	var found bool
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		_, found, err = tx.Workspace(ctx, id)
		return err
	})
	return found, err
}
