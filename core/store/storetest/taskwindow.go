package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// newestTasksAndCounts checks the reads people's bounded task views are
// built from: the newest unleased tasks of a status in insertion order
// (not id order), newest first and cut at the limit; a count of a
// status; and the review-status filter.
func newestTasksAndCounts(t *testing.T, e store.Engine) {
	defer e.Close()
	f := newTaskFixture(t, e, "ws_window", "local-path:window")
	order := []string{"task_c", "task_a", "task_d", "task_b", "task_e", "task_f"}
	for _, id := range order {
		f.insert(t, id, nil, true)
	}
	done := func(t *store.Task) {
		t.Status, t.ReviewStatus = store.TaskCompleted, store.ReviewAccepted
	}
	f.mustWrite(t, "set up", func(ctx context.Context, tx store.Tx) error {
		for _, id := range []string{"task_c", "task_d", "task_e"} {
			if err := f.update(ctx, tx, id, clock, done); err != nil {
				return err
			}
		}
		if err := reported(ctx, tx, f, "task_a"); err != nil {
			return err
		}
		// A completed row still carrying a lease expiry (the rules never
		// leave one): counted, but not among the newest unleased.
		return f.update(ctx, tx, "task_f", clock, func(t *store.Task) {
			done(t)
			expiry := anHourAfter
			t.LeaseExpiresAt = &expiry
		})
	})
	newest := []struct {
		status store.TaskStatus
		limit  int
		want   []string
	}{
		{store.TaskCompleted, 2, []string{"task_e", "task_d"}},
		{store.TaskCompleted, 10, []string{"task_e", "task_d", "task_a", "task_c"}},
		{store.TaskOpen, 10, []string{"task_b"}},
		{store.TaskBlocked, 10, []string{}},
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, c := range newest {
			tasks, err := tx.NewestTasks(ctx, "ws_window", c.status, c.limit)
			if err != nil {
				return fmt.Errorf("newest %s: %w", c.status, err)
			}
			if got := ids(tasks, func(t store.Task) string { return t.ID }); tasks == nil || !slices.Equal(got, c.want) {
				t.Errorf("NewestTasks(%s, %d) = %#v, want %v", c.status, c.limit, got, c.want)
			}
		}
		for status, want := range map[store.TaskStatus]int{store.TaskCompleted: 5, store.TaskOpen: 1, store.TaskClaimed: 0} {
			if n, err := tx.CountTasks(ctx, "ws_window", status); err != nil || n != want {
				t.Errorf("CountTasks(%s) = %d, %v; want %d", status, n, err, want)
			}
		}
		pending, err := tx.Tasks(ctx, "ws_window", store.TaskFilter{Status: store.TaskCompleted, ReviewStatus: store.ReviewPending})
		if got := ids(pending, func(t store.Task) string { return t.ID }); err != nil || !slices.Equal(got, []string{"task_a"}) {
			t.Errorf("completed awaiting review = %v, %v; want [task_a]", got, err)
		}
		return nil
	})
}
