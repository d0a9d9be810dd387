package sqltx

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/store"
)

// execTaskWrite runs one statement and wraps its error with what it was doing.
func (t *Tx) execTaskWrite(ctx context.Context, what, query string, args ...any) error {
	if _, err := t.ExecContext(ctx, query, args...); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// encodeList renders a string list as the tasks table stores it: JSON
// without HTML escaping, U+2028 and U+2029 left raw, no trailing newline.
func encodeList(list []string) (string, error) {
	if list == nil {
		list = []string{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(list); err != nil {
		return "", err
	}
	return string(canon.RawLineSeparators(bytes.TrimRight(b.Bytes(), "\n"))), nil
}

// storedJSON is a JSON value as a nullable TEXT column stores it.
func storedJSON(v json.RawMessage) any {
	if v == nil {
		return nil
	}
	return string(v)
}

// TaskExists counts the workspace's tasks with this id.
func (t *Tx) TaskExists(ctx context.Context, workspaceID, taskID string) (bool, error) {
	var n int
	if err := t.QueryRowContext(ctx, "SELECT count(*) FROM tasks WHERE workspace_id = ? AND id = ?", workspaceID, taskID).Scan(&n); err != nil {
		return false, err
	}
	return n > 0, nil
}

// InsertTask stores a new open task at version 1.
func (t *Tx) InsertTask(ctx context.Context, n store.NewTask) error {
	deps, err := encodeList(n.Dependencies)
	if err != nil {
		return fmt.Errorf("insert task: %w", err)
	}
	scopes, err := encodeList(n.PathScopes)
	if err != nil {
		return fmt.Errorf("insert task: %w", err)
	}
	now := n.CreatedAt
	if n.SessionPlane {
		_, err = t.ExecContext(ctx, `INSERT INTO tasks (id, workspace_id, title, description, status, dependencies_json,
path_scopes_json, version, created_at, updated_at, coordination_mode, work_mode, completion_policy, review_status,
review_generation, expected_base_sha) VALUES (?, ?, ?, ?, 'open', ?, ?, 1, ?, ?, 'session_v2', ?, ?, 'not_required', 0, ?)`,
			n.ID, n.WorkspaceID, n.Title, n.Description, deps, scopes, now, now, n.WorkMode, string(n.CompletionPolicy), n.ExpectedBaseSHA)
	} else {
		_, err = t.ExecContext(ctx, `INSERT INTO tasks (id, workspace_id, title, description, status, dependencies_json,
path_scopes_json, version, created_at, updated_at) VALUES (?, ?, ?, ?, 'open', ?, ?, 1, ?, ?)`,
			n.ID, n.WorkspaceID, n.Title, n.Description, deps, scopes, now, now)
	}
	if err != nil {
		return fmt.Errorf("insert task: %w", err)
	}
	return nil
}

// RecordProgress sets the latest progress note.
func (t *Tx) RecordProgress(ctx context.Context, workspaceID, taskID, message, now string) error {
	return t.execTaskWrite(ctx, "record progress", "UPDATE tasks SET latest_progress = ?, version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?",
		message, now, workspaceID, taskID)
}

// sessionClear also clears the session columns when asked; a legacy
// writer never touches them.
func sessionClear(clear bool) string {
	if clear {
		return "assignee_session_id = NULL, claim_worktree_id = NULL, "
	}
	return ""
}

// BlockTask records a blocker and drops the lease.
func (t *Tx) BlockTask(ctx context.Context, workspaceID, taskID, blocker string, clearSession bool, now string) error {
	return t.execTaskWrite(ctx, "block task", `UPDATE tasks SET status = 'blocked', blocker = ?, assignee = NULL, lease_id = NULL,
lease_expires_at = NULL, `+sessionClear(clearSession)+`version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?`,
		blocker, now, workspaceID, taskID)
}

// UnblockTask reopens a blocked task.
func (t *Tx) UnblockTask(ctx context.Context, workspaceID, taskID string, resetReview bool, now string) error {
	review := ""
	if resetReview {
		review = "review_status = 'not_required', "
	}
	return t.execTaskWrite(ctx, "unblock task", "UPDATE tasks SET status = 'open', blocker = NULL, "+review+
		"version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?", now, workspaceID, taskID)
}

// CompleteTask records a legacy completion.
func (t *Tx) CompleteTask(ctx context.Context, workspaceID, taskID, summary, now string) error {
	return t.execTaskWrite(ctx, "complete task", `UPDATE tasks SET status = 'completed', assignee = NULL, lease_id = NULL,
lease_expires_at = NULL, blocker = NULL, latest_progress = ?, completed_at = ?, version = version + 1, updated_at = ?
WHERE workspace_id = ? AND id = ?`, summary, now, now, workspaceID, taskID)
}

// ReportCompletion records a session's completion.
func (t *Tx) ReportCompletion(ctx context.Context, workspaceID, taskID string, c store.Completion, now string) error {
	return t.execTaskWrite(ctx, "complete task", `UPDATE tasks SET status = 'completed', review_status = ?, review_generation = review_generation + 1,
assignee = NULL, assignee_session_id = NULL, claim_worktree_id = NULL, lease_id = NULL, lease_expires_at = NULL, blocker = NULL,
latest_progress = ?, result_checkpoint_json = ?, completion_report_id = ?, reported_by = ?, reported_by_session_id = ?, reported_at = ?,
accepted_by = NULL, accepted_by_session_id = NULL, accepted_at = NULL, completed_at = ?, version = version + 1, updated_at = ?
WHERE workspace_id = ? AND id = ?`, string(c.ReviewStatus), c.Summary, string(c.ResultCheckpoint), c.ReportID, c.ReportedBy,
		c.ReportedBySessionID, now, now, now, workspaceID, taskID)
}

// AcceptCompletion records an acceptance.
func (t *Tx) AcceptCompletion(ctx context.Context, workspaceID, taskID, actor, sessionID, now string) error {
	return t.execTaskWrite(ctx, "accept task", `UPDATE tasks SET review_status = 'accepted', accepted_by = ?, accepted_by_session_id = ?,
accepted_at = ?, version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?`, actor, sessionID, now, now, workspaceID, taskID)
}

// RequestChanges reopens a reported task.
func (t *Tx) RequestChanges(ctx context.Context, workspaceID, taskID, now string) error {
	return t.execTaskWrite(ctx, "request changes", `UPDATE tasks SET status = 'open', review_status = 'changes_requested', accepted_by = NULL,
accepted_by_session_id = NULL, accepted_at = NULL, completed_at = NULL, version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?`,
		now, workspaceID, taskID)
}

// SettleRecovery sets a recovered task's status and blocker.
func (t *Tx) SettleRecovery(ctx context.Context, workspaceID, taskID string, status store.TaskStatus, blocker *string, now string) error {
	return t.execTaskWrite(ctx, "recover task", "UPDATE tasks SET status = ?, blocker = ?, version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?",
		string(status), blocker, now, workspaceID, taskID)
}

// BumpTask increments the version only.
func (t *Tx) BumpTask(ctx context.Context, workspaceID, taskID, now string) error {
	return t.execTaskWrite(ctx, "bump task", "UPDATE tasks SET version = version + 1, updated_at = ? WHERE workspace_id = ? AND id = ?",
		now, workspaceID, taskID)
}

// InsertArtifact stores an artifact reference.
func (t *Tx) InsertArtifact(ctx context.Context, workspaceID string, a store.Artifact) error {
	return t.execTaskWrite(ctx, "attach artifact", `INSERT INTO artifacts (id, workspace_id, task_id, kind, uri, sha256,
media_type, label, attached_by, attached_at, attached_by_session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		a.ID, workspaceID, a.TaskID, a.Kind, a.URI, a.SHA256, a.MediaType, a.Label, a.AttachedBy,
		a.AttachedAt, a.AttachedBySessionID)
}

// InsertRecovery stores a recovery's audit row.
func (t *Tx) InsertRecovery(ctx context.Context, r store.LeaseRecovery) error {
	return t.execTaskWrite(ctx, "record recovery", `INSERT INTO task_recoveries (id, workspace_id, task_id, prior_lease_id, prior_session_id,
recovered_by_session_id, action, note, prior_checkpoint_json, new_lease_id, recovered_at, event_sequence)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.ID, r.WorkspaceID, r.TaskID, r.PriorLeaseID,
		r.PriorSessionID, r.RecoveredBySessionID, r.Action, r.Note, storedJSON(r.PriorCheckpoint), r.NewLeaseID, r.RecoveredAt,
		r.EventSequence)
}

// InsertReview stores a review decision.
func (t *Tx) InsertReview(ctx context.Context, r store.Review) error {
	return t.execTaskWrite(ctx, "record review", `INSERT INTO task_reviews (id, workspace_id, task_id, review_generation, outcome, summary,
reviewer_actor, reviewer_session_id, created_at, event_sequence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, r.ID, r.WorkspaceID,
		r.TaskID, r.ReviewGeneration, r.Outcome, r.Summary, r.ReviewerActor, r.ReviewerSessionID,
		r.CreatedAt, r.EventSequence)
}
