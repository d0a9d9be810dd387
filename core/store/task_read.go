package store

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
)

// effectiveStatus is the status a reader should act on at now: an expired
// session lease needs recovery, an expired legacy lease is reclaimable, and
// completed tasks show their review state.
func effectiveStatus(t *Task, now string) TaskStatus {
	if leaseLapsed(t, now) {
		if t.AssigneeSessionID != nil {
			return TaskRecoveryRequired
		}
		return TaskLeaseExpired
	}
	if t.Status == TaskCompleted {
		switch t.ReviewStatus {
		case ReviewPending:
			return TaskReportedComplete
		case ReviewAccepted:
			return TaskAccepted
		}
	}
	return t.Status
}

// listTasks returns the workspace's tasks in (created_at, id) order,
// optionally only those whose stored status is status, with their
// effective status at now.
func listTasks(ctx context.Context, q Tasks, workspaceID, status, now string) ([]Task, error) {
	tasks, err := q.Tasks(ctx, workspaceID, TaskFilter{Status: TaskStatus(status)})
	for i := range tasks {
		tasks[i].EffectiveStatus = effectiveStatus(&tasks[i], now)
	}
	return tasks, err
}

// findTask reads one task with its effective status at now; found is
// false when it does not exist.
func findTask(ctx context.Context, q Tasks, workspaceID, taskID, now string) (Task, bool, error) {
	t, found, err := q.Task(ctx, workspaceID, taskID)
	if found {
		t.EffectiveStatus = effectiveStatus(&t, now)
	}
	return t, found, err
}

func taskNotFound(id string) error {
	return collaberr.Newf(collaberr.TaskNotFound, "Task '%s' was not found in this workspace", id).With("task_id", id)
}

// loadTask is findTask that refuses an unknown task with task_not_found.
func loadTask(ctx context.Context, q Tasks, workspaceID, taskID, now string) (Task, error) {
	t, ok, err := findTask(ctx, q, workspaceID, taskID, now)
	if err == nil && !ok {
		err = taskNotFound(taskID)
	}
	return t, err
}

// loadTaskAt reads a task the caller expects at version: task_not_found
// when there is none, task_version_conflict (with the task as read) when
// it has moved on.
func loadTaskAt(ctx context.Context, q Tasks, workspaceID, taskID string, version int64, now string) (Task, error) {
	t, err := loadTask(ctx, q, workspaceID, taskID, now)
	if err == nil && t.Version != version {
		err = versionConflict(version, t.Version)
	}
	return t, err
}

func listArtifacts(ctx context.Context, q Tasks, workspaceID, taskID string) ([]Artifact, error) {
	return q.Artifacts(ctx, workspaceID, taskID)
}

// ListTasks returns the workspace's tasks.
func (s *Store) ListTasks(ctx context.Context, workspaceID, status string) ([]Task, error) {
	var out []Task
	err := s.readTx(ctx, func(tx Tx) error {
		if _, err := readWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		var err error
		out, err = listTasks(ctx, tx, workspaceID, status, s.nowISO())
		return err
	})
	return out, err
}

// GetTask returns one task with its artifacts. An unknown workspace reads
// as an unknown task.
func (s *Store) GetTask(ctx context.Context, workspaceID, taskID string) (TaskWithArtifacts, error) {
	var out TaskWithArtifacts
	err := s.readTx(ctx, func(tx Tx) error {
		t, err := loadTask(ctx, tx, workspaceID, taskID, s.nowISO())
		if err != nil {
			return err
		}
		out.Task = t
		out.Artifacts, err = listArtifacts(ctx, tx, workspaceID, taskID)
		return err
	})
	return out, err
}
