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
