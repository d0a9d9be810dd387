package sqltx

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// reservingTasksSelect is the statement that lists the candidates for
// reserving paths of a repository ("?", bound twice): tasks stored as
// claimed, then as completed with a review pending, each half read
// through an index of its own (see PendingReview), ordered by the
// dialect's row-order column ("%[1]s") of the workspace and then of the
// task. Which of them reserve at a given time is the rules' decision.
const reservingTasksSelect = `SELECT ` + reservingColumns + ` AND t.status = 'claimed'
UNION ALL SELECT ` + reservingColumns + ` AND t.status = 'completed' AND t.review_status = 'pending'
ORDER BY workspace_order, task_order`

const reservingColumns = `t.id, t.workspace_id, t.title, t.status, t.path_scopes_json, t.work_mode,
t.completion_policy, t.review_status, t.assignee, t.assignee_session_id, t.claim_worktree_id, t.lease_expires_at,
t.created_at, w.%[1]s AS workspace_order, t.%[1]s AS task_order FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
WHERE w.repository_key = ?`

// ReservingTasks lists the repository's candidates for reserving paths
// in workspace insertion order, then task insertion order (the dialect's
// row-order column), with the columns the port names.
func (t *Tx) ReservingTasks(ctx context.Context, repositoryKey string) ([]store.Task, error) {
	rows, err := t.QueryContext(ctx, t.d.reservingTasks, repositoryKey, repositoryKey)
	if err != nil {
		return nil, fmt.Errorf("read reservations: %w", err)
	}
	defer rows.Close()
	// The rows are scanned into a compact record and copied into tasks
	// once their number is known: a Task is large, and growing a slice
	// of them row by row costs more than the read itself.
	var list []reservingRow
	for rows.Next() {
		var r reservingRow
		var scopes string
		var workspaceOrder, taskOrder int64
		if err := rows.Scan(&r.id, &r.workspaceID, &r.title, &r.status, &scopes, &r.workMode, &r.policy,
			&r.review, &r.assignee, &r.sessionID, &r.worktreeID, &r.expires, &r.createdAt,
			&workspaceOrder, &taskOrder); err != nil {
			return nil, fmt.Errorf("read reservations: %w", err)
		}
		if err := json.Unmarshal([]byte(scopes), &r.scopes); err != nil {
			return nil, fmt.Errorf("task %s path scopes: %w", r.id, err)
		}
		list = append(list, r)
	}
	out := make([]store.Task, len(list))
	for i, r := range list {
		out[i] = r.task()
	}
	return out, rows.Err()
}

// reservingRow is one row of ReservingTasks as scanned.
type reservingRow struct {
	id, workspaceID, title, workMode, createdAt string
	status                                      store.TaskStatus
	policy                                      store.CompletionPolicy
	review                                      store.ReviewStatus
	assignee, sessionID, worktreeID, expires    *string
	scopes                                      []string
}

func (r reservingRow) task() store.Task {
	if r.scopes == nil {
		r.scopes = []string{}
	}
	return store.Task{ID: r.id, WorkspaceID: r.workspaceID, Title: r.title, Status: r.status, PathScopes: r.scopes,
		WorkMode: r.workMode, CompletionPolicy: r.policy, ReviewStatus: r.review, Assignee: r.assignee,
		AssigneeSessionID: r.sessionID, ClaimWorktreeID: r.worktreeID, LeaseExpiresAt: r.expires, CreatedAt: r.createdAt}
}
