package sqltx

import (
	"context"

	"github.com/agenttool/collab/core/store"
)

// ClaimTask gives a lease to a task: a legacy lease leaves the session
// columns alone; a session lease moves the task to the session plane and
// clears the review state of an earlier completion.
func (t *Tx) ClaimTask(ctx context.Context, workspaceID, taskID string, l store.Lease, now string) error {
	if l.SessionID == nil {
		return t.execTaskWrite(ctx, "claim task", `UPDATE tasks SET status = 'claimed', assignee = ?, lease_id = ?, lease_expires_at = ?,
blocker = NULL, version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?`, l.Assignee, l.ID, l.ExpiresAt, now, workspaceID, taskID)
	}
	return t.execTaskWrite(ctx, "claim task", `UPDATE tasks SET status = 'claimed', assignee = ?, assignee_session_id = ?,
claim_worktree_id = ?, lease_id = ?, lease_expires_at = ?, blocker = NULL, base_checkpoint_json = ?,
coordination_mode = 'session_v2', review_status = 'not_required', result_checkpoint_json = NULL, completion_report_id = NULL,
reported_by = NULL, reported_by_session_id = NULL, reported_at = NULL, accepted_by = NULL, accepted_by_session_id = NULL,
accepted_at = NULL, completed_at = NULL, version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?`,
		l.Assignee, *l.SessionID, l.WorktreeID, l.ID, l.ExpiresAt, string(l.BaseCheckpoint), now, workspaceID, taskID)
}

// TakeOverTask gives a session lease to a recovered task.
func (t *Tx) TakeOverTask(ctx context.Context, workspaceID, taskID string, l store.Lease, now string) error {
	return t.execTaskWrite(ctx, "take over task", `UPDATE tasks SET status = 'claimed', assignee = ?, assignee_session_id = ?,
claim_worktree_id = ?, lease_id = ?, lease_expires_at = ?, blocker = NULL, base_checkpoint_json = ?, version = version + 1,
updated_at = ? WHERE workspace_id = ? AND id = ?`, l.Assignee, l.SessionID, l.WorktreeID, l.ID, l.ExpiresAt, string(l.BaseCheckpoint),
		now, workspaceID, taskID)
}

// TransferLease moves the lease to a handoff's recipient.
func (t *Tx) TransferLease(ctx context.Context, workspaceID, taskID string, l store.Lease, now string) error {
	if l.SessionID == nil {
		return t.execTaskWrite(ctx, "transfer lease", `UPDATE tasks SET assignee = ?, lease_id = ?, lease_expires_at = ?, version = version + 1,
updated_at = ? WHERE workspace_id = ? AND id = ?`, l.Assignee, l.ID, l.ExpiresAt, now, workspaceID, taskID)
	}
	return t.execTaskWrite(ctx, "transfer lease", `UPDATE tasks SET assignee = ?, assignee_session_id = ?, claim_worktree_id = ?, lease_id = ?,
lease_expires_at = ?, base_checkpoint_json = ?, version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?`,
		l.Assignee, *l.SessionID, l.WorktreeID, l.ID, l.ExpiresAt, string(l.BaseCheckpoint), now, workspaceID, taskID)
}

// RenewLease sets the lease's expiry.
func (t *Tx) RenewLease(ctx context.Context, workspaceID, taskID, expiresAt, now string) error {
	return t.execTaskWrite(ctx, "renew lease", "UPDATE tasks SET lease_expires_at = ?, version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?",
		expiresAt, now, workspaceID, taskID)
}

// ReleaseLease reopens a task; the legacy statement is also the one that
// settles an expired legacy lease before a claim.
func (t *Tx) ReleaseLease(ctx context.Context, workspaceID, taskID string, clearSession bool, now string) error {
	return t.execTaskWrite(ctx, "release lease", `UPDATE tasks SET status = 'open', assignee = NULL, lease_id = NULL,
lease_expires_at = NULL, `+sessionClear(clearSession)+`version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?`,
		now, workspaceID, taskID)
}

// ExpireSessionLease records the clock ending a session lease.
func (t *Tx) ExpireSessionLease(ctx context.Context, workspaceID, taskID, now string) error {
	return t.execTaskWrite(ctx, "expire lease", `UPDATE tasks SET status = 'open', assignee = NULL, assignee_session_id = NULL,
claim_worktree_id = NULL, lease_id = NULL, lease_expires_at = NULL, version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?`,
		now, workspaceID, taskID)
}
