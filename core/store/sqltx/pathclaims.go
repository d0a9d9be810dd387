package sqltx

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// claimedPathsSelect selects the reserving tasks ClaimedPaths reads; the
// dialect appends their order (its parameters are the repository key and
// the clock).
const claimedPathsSelect = `SELECT t.id, t.workspace_id, t.assignee, t.assignee_session_id, t.lease_expires_at,
t.path_scopes_json FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
WHERE w.repository_key = ? AND t.work_mode != 'read_only' AND (
  (t.status = 'claimed' AND (t.lease_expires_at > ? OR t.assignee_session_id IS NOT NULL))
  OR (t.status = 'completed' AND t.completion_policy = 'accepted' AND t.review_status = 'pending'))`

// ClaimedPaths lists the repository's path-reserving tasks. The order is
// the one SQLite's indexes yield, which is the order the reference reports
// conflicts in, ties by the dialect's row-order column; stating it keeps
// both implementations alike.
func (t *Tx) ClaimedPaths(ctx context.Context, repositoryKey, now string) ([]store.PathClaim, error) {
	rows, err := t.QueryContext(ctx, t.d.claimedPaths, repositoryKey, now)
	if err != nil {
		return nil, fmt.Errorf("read reservations: %w", err)
	}
	defer rows.Close()
	out := []store.PathClaim{}
	for rows.Next() {
		var r store.PathClaim
		var scopes string
		if err := rows.Scan(&r.TaskID, &r.WorkspaceID, &r.Assignee, &r.AssigneeSessionID, &r.LeaseExpiresAt, &scopes); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(scopes), &r.PathScopes); err != nil {
			return nil, fmt.Errorf("task %s path scopes: %w", r.TaskID, err)
		}
		if r.PathScopes == nil {
			r.PathScopes = []string{}
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
