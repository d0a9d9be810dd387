package sqltx

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/store"
)

// reservingTasksSelect selects the candidates for reserving paths of a
// repository ("?"): tasks stored as claimed, or as completed with a
// review pending; the dialect appends their order. Which of them reserve
// at a given time is the rules' decision.
var reservingTasksSelect = "SELECT t." + strings.ReplaceAll(taskColumns, ", ", ", t.") + `
FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
WHERE w.repository_key = ? AND (t.status = 'claimed' OR (t.status = 'completed' AND t.review_status = 'pending'))`

// ReservingTasks lists the repository's candidates for reserving paths
// in workspace insertion order, then task insertion order (the dialect's
// row-order column).
func (t *Tx) ReservingTasks(ctx context.Context, repositoryKey string) ([]store.Task, error) {
	rows, err := t.QueryContext(ctx, t.d.reservingTasks, repositoryKey)
	if err != nil {
		return nil, fmt.Errorf("read reservations: %w", err)
	}
	defer rows.Close()
	out := []store.Task{}
	for rows.Next() {
		task, err := scanTask(rows)
		if err != nil {
			return nil, fmt.Errorf("read reservations: %w", err)
		}
		out = append(out, task)
	}
	return out, rows.Err()
}
