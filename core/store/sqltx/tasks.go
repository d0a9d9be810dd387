package sqltx

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// taskColumns is the column list scanTask reads, in order.
const taskColumns = `id, workspace_id, title, description, status, dependencies_json, path_scopes_json, work_mode,
completion_policy, review_status, expected_base_sha, base_checkpoint_json, result_checkpoint_json, completion_report_id,
assignee, assignee_session_id, claim_worktree_id, lease_id, lease_expires_at, blocker, latest_progress, reported_by,
reported_by_session_id, reported_at, accepted_by, accepted_by_session_id, accepted_at, version, created_at, updated_at,
completed_at, coordination_mode, review_generation`

// scanTask reads one row selected with taskColumns; the effective status
// is the rules' to compute.
func scanTask(row interface{ Scan(dest ...any) error }) (store.Task, error) {
	var t store.Task
	var deps, scopes string
	var base, result sql.NullString
	err := row.Scan(&t.ID, &t.WorkspaceID, &t.Title, &t.Description, &t.Status, &deps, &scopes, &t.WorkMode,
		&t.CompletionPolicy, &t.ReviewStatus, &t.ExpectedBaseSHA, &base, &result, &t.CompletionReportID,
		&t.Assignee, &t.AssigneeSessionID, &t.ClaimWorktreeID, &t.LeaseID, &t.LeaseExpiresAt, &t.Blocker,
		&t.LatestProgress, &t.ReportedBy, &t.ReportedBySessionID, &t.ReportedAt, &t.AcceptedBy,
		&t.AcceptedBySessionID, &t.AcceptedAt, &t.Version, &t.CreatedAt, &t.UpdatedAt, &t.CompletedAt,
		&t.CoordinationMode, &t.ReviewGeneration)
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
	return t, nil
}

// ListTasks returns the workspace's tasks that f selects, in
// (created_at, id) order; never nil. Every filter keeps the read on the
// tasks' workspace index.
func ListTasks(ctx context.Context, q Runner, workspaceID string, f store.TaskFilter) ([]store.Task, error) {
	where, args := taskWhere(workspaceID, f)
	query := "SELECT " + taskColumns + " FROM tasks WHERE " + where + taskSetCondition[f.Set]
	if f.Set == store.UnsettledTasks {
		// One half per index: the status index serves the unfinished
		// tasks, and the pending reviews are read through their own
		// index when the file has it (see PendingReview). The halves are
		// disjoint, so the rows are those of the single condition.
		query = "SELECT " + taskColumns + " FROM tasks WHERE " + where + taskSetCondition[store.UnfinishedTasks] +
			" UNION ALL SELECT " + taskColumns + " FROM tasks WHERE " + where + " AND " + PendingReview
		args = append(args, args...)
	}
	rows, err := q.QueryContext(ctx, query+" ORDER BY created_at, id", args...)
	if err != nil {
		return nil, fmt.Errorf("list tasks: %w", err)
	}
	defer rows.Close()
	tasks := []store.Task{}
	for rows.Next() {
		t, err := scanTask(rows)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	return tasks, rows.Err()
}

// PendingReview is the condition of a completion awaiting review, spelled
// as the predicate of the SQLite engine's partial index on it so that the
// planner can use that index (it matches literals, not parameters).
const PendingReview = "status = 'completed' AND review_status = 'pending'"

// taskWhere is the condition and arguments f selects in a workspace,
// without its set.
func taskWhere(workspaceID string, f store.TaskFilter) (string, []any) {
	where := "workspace_id = ?"
	args := []any{workspaceID}
	switch {
	case f.Status == store.TaskCompleted && f.ReviewStatus == store.ReviewPending:
		where += " AND " + PendingReview
	default:
		if f.Status != "" {
			where += " AND status = ?"
			args = append(args, string(f.Status))
		}
		if f.ReviewStatus != "" {
			where += " AND review_status = ?"
			args = append(args, string(f.ReviewStatus))
		}
	}
	switch by := f.HeldOrReportedBy; {
	case by.SessionID != "":
		where += " AND (assignee_session_id = ? OR reported_by_session_id = ?)"
		args = append(args, by.SessionID, by.SessionID)
	case by.Actor != "":
		where += " AND (assignee = ? OR reported_by = ?)"
		args = append(args, by.Actor, by.Actor)
	}
	return where, args
}

// taskSetCondition is the condition each store.TaskSet adds. The statuses
// are named (rather than "status <> 'completed'") so that the status index
// serves the read; the column admits no other value.
var taskSetCondition = map[store.TaskSet]string{
	store.EveryTask:       "",
	store.UnfinishedTasks: " AND status IN ('open', 'claimed', 'blocked')",
	store.UnsettledTasks:  " AND (status IN ('open', 'claimed', 'blocked') OR (" + PendingReview + "))",
}

// FindTask reads one task; found is false when it does not exist.
func FindTask(ctx context.Context, q Runner, workspaceID, taskID string) (store.Task, bool, error) {
	t, err := scanTask(q.QueryRowContext(ctx, "SELECT "+taskColumns+" FROM tasks WHERE workspace_id = ? AND id = ?",
		workspaceID, taskID))
	if err == sql.ErrNoRows {
		return t, false, nil
	}
	if err != nil {
		return t, false, fmt.Errorf("read task: %w", err)
	}
	return t, true, nil
}

// ListArtifacts lists a task's artifacts in (attached_at, id) order; never nil.
func ListArtifacts(ctx context.Context, q Runner, workspaceID, taskID string) ([]store.Artifact, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, task_id, kind, uri, sha256, media_type, label, attached_by, attached_at,
attached_by_session_id FROM artifacts WHERE workspace_id = ? AND task_id = ? ORDER BY attached_at, id`, workspaceID, taskID)
	if err != nil {
		return nil, fmt.Errorf("list artifacts: %w", err)
	}
	defer rows.Close()
	out := []store.Artifact{}
	for rows.Next() {
		var a store.Artifact
		if err := rows.Scan(&a.ID, &a.TaskID, &a.Kind, &a.URI, &a.SHA256, &a.MediaType, &a.Label, &a.AttachedBy,
			&a.AttachedAt, &a.AttachedBySessionID); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// Tasks lists the workspace's tasks that f selects (see ListTasks).
func (t *Tx) Tasks(ctx context.Context, workspaceID string, f store.TaskFilter) ([]store.Task, error) {
	return ListTasks(ctx, t, workspaceID, f)
}

// Task reads one task (see FindTask).
func (t *Tx) Task(ctx context.Context, workspaceID, taskID string) (store.Task, bool, error) {
	return FindTask(ctx, t, workspaceID, taskID)
}

// Artifacts lists a task's artifacts (see ListArtifacts).
func (t *Tx) Artifacts(ctx context.Context, workspaceID, taskID string) ([]store.Artifact, error) {
	return ListArtifacts(ctx, t, workspaceID, taskID)
}
