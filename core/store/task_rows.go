package store

import (
	"context"

	"github.com/agenttool/collab/core/store/engine"
)

// taskIn reads one task through the engine with its effective status at
// now; an unknown task is refused with task_not_found. It is loadTask for
// the rules that no longer hold a querier.
func taskIn(ctx context.Context, q engine.Tasks, workspaceID, taskID, now string) (Task, error) {
	t, found, err := q.Task(ctx, workspaceID, taskID)
	if err != nil {
		return t, err
	}
	if !found {
		return t, taskNotFound(taskID)
	}
	t.EffectiveStatus = effectiveStatus(&t, now)
	return t, nil
}

// workspaceIn reads one workspace through the engine; an unknown
// workspace is refused with workspace_not_found.
func workspaceIn(ctx context.Context, q engine.Workspaces, id string) (Workspace, error) {
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
	err := s.engine().Read(ctx, func(tx engine.Tx) error {
		var err error
		_, found, err = tx.Workspace(ctx, id)
		return err
	})
	return found, err
}
