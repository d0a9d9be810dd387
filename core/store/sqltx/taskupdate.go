package sqltx

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agenttool/collab/core/store"
)

// taskColumn is one stored column of the tasks table a versioned write may
// set, and how to read its stored value off a task (nil stores NULL).
type taskColumn struct {
	name  string
	value func(t *store.Task) any
}

func text(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

func rawText(v json.RawMessage) any {
	if v == nil {
		return nil
	}
	return string(v)
}

// mutableTaskColumns are the columns UpdateTask compares, in the order
// they appear in the table; the identity columns (id, workspace_id,
// created_at), the two lists and version are handled apart.
var mutableTaskColumns = []taskColumn{
	{"title", func(t *store.Task) any { return t.Title }},
	{"description", func(t *store.Task) any { return text(t.Description) }},
	{"status", func(t *store.Task) any { return string(t.Status) }},
	{"work_mode", func(t *store.Task) any { return t.WorkMode }},
	{"completion_policy", func(t *store.Task) any { return string(t.CompletionPolicy) }},
	{"review_status", func(t *store.Task) any { return string(t.ReviewStatus) }},
	{"expected_base_sha", func(t *store.Task) any { return text(t.ExpectedBaseSHA) }},
	{"base_checkpoint_json", func(t *store.Task) any { return rawText(t.BaseCheckpoint) }},
	{"result_checkpoint_json", func(t *store.Task) any { return rawText(t.ResultCheckpoint) }},
	{"completion_report_id", func(t *store.Task) any { return text(t.CompletionReportID) }},
	{"assignee", func(t *store.Task) any { return text(t.Assignee) }},
	{"assignee_session_id", func(t *store.Task) any { return text(t.AssigneeSessionID) }},
	{"claim_worktree_id", func(t *store.Task) any { return text(t.ClaimWorktreeID) }},
	{"lease_id", func(t *store.Task) any { return text(t.LeaseID) }},
	{"lease_expires_at", func(t *store.Task) any { return text(t.LeaseExpiresAt) }},
	{"blocker", func(t *store.Task) any { return text(t.Blocker) }},
	{"latest_progress", func(t *store.Task) any { return text(t.LatestProgress) }},
	{"reported_by", func(t *store.Task) any { return text(t.ReportedBy) }},
	{"reported_by_session_id", func(t *store.Task) any { return text(t.ReportedBySessionID) }},
	{"reported_at", func(t *store.Task) any { return text(t.ReportedAt) }},
	{"accepted_by", func(t *store.Task) any { return text(t.AcceptedBy) }},
	{"accepted_by_session_id", func(t *store.Task) any { return text(t.AcceptedBySessionID) }},
	{"accepted_at", func(t *store.Task) any { return text(t.AcceptedAt) }},
	{"updated_at", func(t *store.Task) any { return t.UpdatedAt }},
	{"completed_at", func(t *store.Task) any { return text(t.CompletedAt) }},
	{"coordination_mode", func(t *store.Task) any { return t.CoordinationMode }},
	{"review_generation", func(t *store.Task) any { return t.ReviewGeneration }},
}

// UpdateTask writes after over before: it sets only the columns whose
// stored values differ, and version to after.Version, guarded by
// version = before.Version, so a column that did not change is never
// named in the statement.
func (t *Tx) UpdateTask(ctx context.Context, before, after store.Task) error {
	if before.ID != after.ID || before.WorkspaceID != after.WorkspaceID || before.CreatedAt != after.CreatedAt {
		return fmt.Errorf("update task %s: the identity of a task never changes", before.ID)
	}
	if after.Version != before.Version+1 {
		return fmt.Errorf("update task %s: version %d does not follow %d", before.ID, after.Version, before.Version)
	}
	var set strings.Builder
	var args []any
	for _, c := range mutableTaskColumns {
		if v := c.value(&after); v != c.value(&before) {
			set.WriteString(c.name + " = ?, ")
			args = append(args, v)
		}
	}
	if err := listChanges(&set, &args, before, after); err != nil {
		return fmt.Errorf("update task %s: %w", before.ID, err)
	}
	args = append(args, after.Version, before.WorkspaceID, before.ID, before.Version)
	res, err := t.ExecContext(ctx, "UPDATE tasks SET "+set.String()+"version = ? WHERE workspace_id = ? AND id = ? AND version = ?", args...)
	if err != nil {
		return fmt.Errorf("update task %s: %w", before.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("update task %s: %w", before.ID, err)
	}
	if n != 1 {
		return fmt.Errorf("update task %s at version %d: %w", before.ID, before.Version, store.ErrStaleTask)
	}
	return nil
}

// listChanges adds the dependency and path scope lists to the statement
// when they changed, encoded as InsertTask stores them.
func listChanges(set *strings.Builder, args *[]any, before, after store.Task) error {
	for _, l := range []struct {
		name      string
		was, want []string
	}{{"dependencies_json", before.Dependencies, after.Dependencies}, {"path_scopes_json", before.PathScopes, after.PathScopes}} {
		if slices.Equal(l.was, l.want) {
			continue
		}
		v, err := encodeList(l.want)
		if err != nil {
			return err
		}
		set.WriteString(l.name + " = ?, ")
		*args = append(*args, v)
	}
	return nil
}
