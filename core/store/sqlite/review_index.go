package sqlite

// ReviewPendingIndex names the index a file gains once it holds many
// completed tasks: the completions whose review is pending. collab_next,
// collab_workspace_status and every claim's path rules must find those
// among every completed task, and the reference's indexes do not hold
// review_status, so without it each read visits every completed task's
// row.
const ReviewPendingIndex = "collab_tasks_review_pending_idx"

// reviewPending is ReviewPendingIndex, gained at 256 completed tasks. Its
// columns are the ones the reads' condition names, so the planner prefers
// it to the status index for them.
var reviewPending = longFileIndex{
	name: ReviewPendingIndex,
	ddl: `CREATE INDEX IF NOT EXISTS collab_tasks_review_pending_idx
        ON tasks(workspace_id, status, review_status) WHERE status = 'completed' AND review_status = 'pending'`,
	rows:  "SELECT 1 FROM tasks WHERE status = 'completed'",
	after: 256,
}
