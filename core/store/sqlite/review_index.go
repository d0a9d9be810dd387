package sqlite

import (
	"context"
	"fmt"
)

// ReviewPendingIndex names the index a file gains once it holds many
// completed tasks: the completions whose review is pending. collab_next,
// collab_workspace_status and every claim's path rules must find those
// among every completed task, and the reference's indexes do not hold
// review_status, so without it each read visits every completed task's
// row. It is a partial index on the reference's own table: SQLite keeps it
// current for every writer, the reference included, and the reference
// opens a file holding it.
const ReviewPendingIndex = "collab_tasks_review_pending_idx"

// reviewPendingDDL creates ReviewPendingIndex. Its columns are the ones
// the reads' condition names, so the planner prefers it to the status
// index for them.
const reviewPendingDDL = `CREATE INDEX IF NOT EXISTS collab_tasks_review_pending_idx
        ON tasks(workspace_id, status, review_status) WHERE status = 'completed' AND review_status = 'pending'`

// reviewIndexAfter is how many completed tasks a file holds before an
// open gives it ReviewPendingIndex: below that, visiting them costs less
// than a millisecond, and a file the reference made keeps exactly its
// schema.
const reviewIndexAfter = 256

// indexPendingReviews creates ReviewPendingIndex once the file holds
// reviewIndexAfter completed tasks. Like the records written after an
// open, it is best effort: a file it cannot index now (another process
// holds the write lock past the wait) opens all the same.
func (s *DB) indexPendingReviews(ctx context.Context) {
	_ = s.ensureReviewIndex(ctx, reviewIndexAfter) //nolint:errcheck // best effort, see above
}

// ensureReviewIndex creates ReviewPendingIndex unless the file has it or
// holds fewer than after completed tasks.
func (s *DB) ensureReviewIndex(ctx context.Context, after int) error {
	var has int
	if err := s.write.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?",
		ReviewPendingIndex).Scan(&has); err != nil || has > 0 {
		return err
	}
	var completed int
	if err := s.write.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT 1 FROM tasks WHERE status = 'completed' LIMIT ?)",
		after).Scan(&completed); err != nil || completed < after {
		return err
	}
	if _, err := s.write.ExecContext(ctx, reviewPendingDDL); err != nil {
		return fmt.Errorf("index the pending reviews: %w", err)
	}
	return nil
}
