package sqltx

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// newestTasksSelect selects a workspace's tasks of one stored status that
// hold no lease expiry. With lease_expires_at pinned to NULL the three
// columns of tasks_workspace_status_idx are all fixed, so SQLite walks
// the index in rowid order, from its end, and stops at the limit.
const newestTasksSelect = "SELECT " + taskColumns + " FROM tasks WHERE workspace_id = ? AND status = ? AND lease_expires_at IS NULL"

// NewestTasks lists up to limit unleased tasks stored with status, the
// newest inserted first (the dialect's row-order column).
func (t *Tx) NewestTasks(ctx context.Context, workspaceID string, status store.TaskStatus, limit int) ([]store.Task, error) {
	rows, err := t.QueryContext(ctx, t.d.newestTasks, workspaceID, string(status), t.d.limit(int64(limit)))
	if err != nil {
		return nil, fmt.Errorf("list the newest %s tasks: %w", status, err)
	}
	defer rows.Close()
	tasks := []store.Task{}
	for rows.Next() {
		task, err := scanTask(rows)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, task)
	}
	return tasks, rows.Err()
}

// CountTasks counts the tasks stored with status.
func (t *Tx) CountTasks(ctx context.Context, workspaceID string, status store.TaskStatus) (int, error) {
	var n int
	if err := t.QueryRowContext(ctx, "SELECT count(*) FROM tasks WHERE workspace_id = ? AND status = ?", workspaceID, string(status)).Scan(&n); err != nil {
		return 0, fmt.Errorf("count the %s tasks: %w", status, err)
	}
	return n, nil
}
