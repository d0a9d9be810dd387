package store

import (
	"cmp"
	"context"
	"slices"
)

// TaskWindow is what people's task views show of a workspace, read from
// one snapshot: every task not stored as completed, every completed task
// awaiting review, and the newest completed tasks, so that its cost
// follows the live work and the window, not the workspace's history.
type TaskWindow struct {
	// Tasks are in (created_at, id) order with their effective status at
	// the read.
	Tasks []Task
	// Completed counts every task stored as completed, shown or not.
	Completed int
	// Hidden counts the completed tasks Tasks leaves out.
	Hidden int
}

// TaskWindowOf reads the workspace's task window with up to newest of its
// newest completed tasks (see NewestTasks: newest inserted first).
// Completed tasks awaiting review are shown whatever their age (a long
// file finds them through its pending-review index); the count of
// completed tasks is the one part whose cost grows with them.
func (s *Store) TaskWindowOf(ctx context.Context, workspaceID string, newest int) (TaskWindow, error) {
	var w TaskWindow
	err := s.readTx(ctx, func(tx Tx) error {
		if _, err := readWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		byID := map[string]Task{}
		keep := func(tasks []Task, err error) error {
			for _, t := range tasks {
				byID[t.ID] = t
			}
			return err
		}
		if err := keep(tx.Tasks(ctx, workspaceID, TaskFilter{Set: UnsettledTasks})); err != nil {
			return err
		}
		if err := keep(tx.NewestTasks(ctx, workspaceID, TaskCompleted, newest)); err != nil {
			return err
		}
		var err error
		if w.Completed, err = tx.CountTasks(ctx, workspaceID, TaskCompleted); err != nil {
			return err
		}
		w.Tasks, w.Hidden = windowed(byID, w.Completed, s.nowISO())
		return nil
	})
	return w, err
}

// windowed orders the tasks read as ListTasks does and counts the
// completed ones left out.
func windowed(byID map[string]Task, completed int, now string) ([]Task, int) {
	tasks := make([]Task, 0, len(byID))
	shown := 0
	for _, t := range byID {
		t.EffectiveStatus = effectiveStatus(&t, now)
		if t.Status == TaskCompleted {
			shown++
		}
		tasks = append(tasks, t)
	}
	slices.SortFunc(tasks, func(a, b Task) int { return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.ID, b.ID)) })
	return tasks, max(completed-shown, 0)
}
