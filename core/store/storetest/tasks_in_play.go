package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// tasksStillInPlay narrows a task list to the unfinished tasks, or to
// those and the completed ones awaiting review, in (created_at, id)
// order, and counts tasks by stored status without listing them.
func tasksStillInPlay(t *testing.T, e store.Engine) {
	defer e.Close()
	f := newTaskFixture(t, e, "ws_play", "local-path:play")
	for _, id := range []string{"task_accepted", "task_blocked", "task_claimed", "task_done", "task_open", "task_reported"} {
		f.insert(t, id, nil, id != "task_done")
	}
	f.mustWrite(t, "set up", func(ctx context.Context, tx store.Tx) error {
		if err := claimed(ctx, tx, f, "task_claimed"); err != nil {
			return err
		}
		if err := reported(ctx, tx, f, "task_reported"); err != nil {
			return err
		}
		if err := reported(ctx, tx, f, "task_accepted"); err != nil {
			return err
		}
		if err := f.update(ctx, tx, "task_accepted", clock, func(t *store.Task) { t.ReviewStatus = store.ReviewAccepted }); err != nil {
			return err
		}
		if err := f.update(ctx, tx, "task_done", clock, func(t *store.Task) { t.Status = store.TaskCompleted }); err != nil {
			return err
		}
		return f.update(ctx, tx, "task_blocked", clock, func(t *store.Task) { t.Status = store.TaskBlocked })
	})
	lists := []struct {
		name   string
		filter store.TaskFilter
		want   []string
	}{
		{"unfinished", store.TaskFilter{Set: store.UnfinishedTasks}, []string{"task_blocked", "task_claimed", "task_open"}},
		{"unsettled", store.TaskFilter{Set: store.UnsettledTasks}, []string{"task_blocked", "task_claimed", "task_open", "task_reported"}},
		{"unfinished and claimed", store.TaskFilter{Set: store.UnfinishedTasks, Status: store.TaskClaimed}, []string{"task_claimed"}},
		{"unfinished and completed", store.TaskFilter{Set: store.UnfinishedTasks, Status: store.TaskCompleted}, []string{}},
	}
	for _, c := range lists {
		read(t, e, func(ctx context.Context, tx store.Tx) error {
			tasks, err := tx.Tasks(ctx, "ws_play", c.filter)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if got := ids(tasks, func(t store.Task) string { return t.ID }); tasks == nil || !slices.Equal(got, c.want) {
				t.Errorf("Tasks(%s) = %#v, want %v", c.name, got, c.want)
			}
			return nil
		})
	}
	counts := map[store.TaskStatus]int{store.TaskCompleted: 3, store.TaskOpen: 1, store.TaskClaimed: 1, store.TaskBlocked: 1}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		for status, want := range counts {
			got, err := tx.CountTasks(ctx, "ws_play", status)
			if err != nil {
				return fmt.Errorf("count %s: %w", status, err)
			}
			if got != want {
				t.Errorf("CountTasks(%s) = %d, want %d", status, got, want)
			}
		}
		if got, err := tx.CountTasks(ctx, "ws_nowhere", store.TaskCompleted); err != nil || got != 0 {
			t.Errorf("CountTasks(unknown workspace) = %d, %v; want 0", got, err)
		}
		return nil
	})
}
