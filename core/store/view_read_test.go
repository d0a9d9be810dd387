package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// TestViewPairsOverlappingClaimsFromDifferentWorktrees builds claims
// directly (the tools refuse overlapping ones, but legacy files and
// expired-but-unrecovered session claims can hold them) and checks which
// pairs the view reports.
func TestViewPairsOverlappingClaimsFromDifferentWorktrees(t *testing.T) {
	ctx := context.Background()
	st, err := backend.Open(ctx, backend.Options{Path: filepath.Join(t.TempDir(), "c.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opened, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "t"})
	if err != nil {
		t.Fatal(err)
	}
	ws := opened.Workspace.ID
	tasks := []struct{ id, scope, worktree string }{
		{"a", "api", "wt1"}, {"b", "api/auth.go", "wt2"}, {"c", "api/x.go", "wt1"}, {"d", "web", "wt2"},
	}
	for _, tc := range tasks {
		id := tc.id
		if _, err := answerJSON(st.CreateTask(ctx, store.LabelActor("t"), store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: id, TaskID: &id,
			Title: id, PathScopes: []string{tc.scope}})); err != nil {
			t.Fatal(err)
		}
		if err := rawWrite(ctx, st, func(tx *Tx) error {
			_, err := tx.ExecContext(ctx, `UPDATE tasks SET status = 'claimed', assignee = 't',
lease_expires_at = '2999-01-01T00:00:00.000Z', claim_worktree_id = ? WHERE workspace_id = ? AND id = ?`, tc.worktree, ws, id)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	v, err := st.View(ctx, ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Conflicts) != 1 {
		t.Fatalf("conflicts %+v, want exactly a/b (a/c share a worktree; d overlaps nothing)", v.Conflicts)
	}
	c := v.Conflicts[0]
	if c.TaskA != "a" || c.TaskB != "b" || c.WorktreeA != "wt1" || c.WorktreeB != "wt2" || len(c.PathPairs) != 1 ||
		c.PathPairs[0] != [2]string{"api", "api/auth.go"} {
		t.Fatalf("conflict %+v", c)
	}
	if len(v.Tasks) != 4 || v.Tasks[0].EffectiveStatus != "claimed" {
		t.Fatalf("tasks %+v", v.Tasks)
	}
}
