package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/collaberr"
)

const taskColumns = `id, workspace_id, title, description, status, dependencies_json, path_scopes_json, work_mode,
completion_policy, review_status, expected_base_sha, base_checkpoint_json, result_checkpoint_json, completion_report_id,
assignee, assignee_session_id, claim_worktree_id, lease_id, lease_expires_at, blocker, latest_progress, reported_by,
reported_by_session_id, reported_at, accepted_by, accepted_by_session_id, accepted_at, version, created_at, updated_at,
completed_at, coordination_mode, review_generation`

type rowScanner interface{ Scan(dest ...any) error }

// scanTask reads one row selected with taskColumns and computes its
// effective status at now.
func scanTask(row rowScanner, now string) (Task, error) {
	var t Task
	var deps, scopes string
	var base, result sql.NullString
	err := row.Scan(&t.ID, &t.WorkspaceID, &t.Title, &t.Description, &t.Status, &deps, &scopes, &t.WorkMode,
		&t.CompletionPolicy, &t.ReviewStatus, &t.ExpectedBaseSHA, &base, &result, &t.CompletionReportID,
		&t.Assignee, &t.AssigneeSessionID, &t.ClaimWorktreeID, &t.LeaseID, &t.LeaseExpiresAt, &t.Blocker,
		&t.LatestProgress, &t.ReportedBy, &t.ReportedBySessionID, &t.ReportedAt, &t.AcceptedBy,
		&t.AcceptedBySessionID, &t.AcceptedAt, &t.Version, &t.CreatedAt, &t.UpdatedAt, &t.CompletedAt,
		&t.coordinationMode, &t.reviewGeneration)
	if err != nil {
		return t, err
	}
	if err := json.Unmarshal([]byte(deps), &t.Dependencies); err != nil {
		return t, fmt.Errorf("task %s dependencies: %w", t.ID, err)
	}
	if err := json.Unmarshal([]byte(scopes), &t.PathScopes); err != nil {
		return t, fmt.Errorf("task %s path scopes: %w", t.ID, err)
	}
	if t.Dependencies == nil {
		t.Dependencies = []string{}
	}
	if t.PathScopes == nil {
		t.PathScopes = []string{}
	}
	if base.Valid {
		t.BaseCheckpoint = json.RawMessage(base.String)
	}
	if result.Valid {
		t.ResultCheckpoint = json.RawMessage(result.String)
	}
	t.EffectiveStatus = effectiveStatus(&t, now)
	return t, nil
}

// effectiveStatus is the status a reader should act on at now: an expired
// session lease needs recovery, an expired legacy lease is reclaimable, and
// completed tasks show their review state.
func effectiveStatus(t *Task, now string) TaskStatus {
	if t.Status == TaskClaimed && t.LeaseExpiresAt != nil && now >= *t.LeaseExpiresAt {
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
// optionally only those whose stored status is status.
func listTasks(ctx context.Context, q querier, workspaceID, status, now string) ([]Task, error) {
	query := "SELECT " + taskColumns + " FROM tasks WHERE workspace_id = ?"
	args := []any{workspaceID}
	if status != "" {
		query += " AND status = ?"
		args = append(args, status)
	}
	rows, err := q.QueryContext(ctx, query+" ORDER BY created_at, id", args...)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	defer rows.Close()
	tasks := []Task{}
	for rows.Next() {
		t, err := scanTask(rows, now)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	return tasks, rows.Err()
}

// findTask reads one task; found is false when it does not exist.
func findTask(ctx context.Context, q querier, workspaceID, taskID, now string) (Task, bool, error) {
	t, err := scanTask(q.QueryRowContext(ctx, "SELECT "+taskColumns+" FROM tasks WHERE workspace_id = ? AND id = ?",
		workspaceID, taskID), now)
	if err == sql.ErrNoRows {
		return t, false, nil
	}
	if err != nil {
		return t, false, fmt.Errorf("read task: %w", err)
	}
	return t, true, nil
}

func taskNotFound(id string) error {
	return collaberr.Newf("task_not_found", "Task '%s' was not found in this workspace", id).With("task_id", id)
}

func loadTask(ctx context.Context, q querier, workspaceID, taskID, now string) (Task, error) {
	t, ok, err := findTask(ctx, q, workspaceID, taskID, now)
	if err == nil && !ok {
		err = taskNotFound(taskID)
	}
	return t, err
}

func listArtifacts(ctx context.Context, q querier, workspaceID, taskID string) ([]Artifact, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, task_id, kind, uri, sha256, media_type, label, attached_by, attached_at,
attached_by_session_id FROM artifacts WHERE workspace_id = ? AND task_id = ? ORDER BY attached_at, id`, workspaceID, taskID)
	if err != nil {
		return nil, fmt.Errorf("list artifacts: %w", err)
	}
	defer rows.Close()
	out := []Artifact{}
	for rows.Next() {
		var a Artifact
		if err := rows.Scan(&a.ID, &a.TaskID, &a.Kind, &a.URI, &a.SHA256, &a.MediaType, &a.Label, &a.AttachedBy,
			&a.AttachedAt, &a.AttachedBySessionID); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// ListTasks returns the workspace's tasks.
func (s *Store) ListTasks(ctx context.Context, workspaceID, status string) ([]Task, error) {
	var out []Task
	err := s.readTx(ctx, func(tx *Tx) error {
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
	err := s.readTx(ctx, func(tx *Tx) error {
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
