package store_test

import (
	"context"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/store"
)

// TestRepositoryAtPrefersTheWorktree checks the rule that finds a root
// path's repository: the worktree registered at the path decides, even
// where a workspace of another repository is rooted at the same path; a
// workspace's root counts when no worktree is registered there; an
// unknown or empty path finds none.
func TestRepositoryAtPrefersTheWorktree(t *testing.T) {
	ctx := context.Background()
	st, err := backend.Open(ctx, backend.Options{Path: backend.MemoryPath})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	err = st.Engine().Write(ctx, func(tx store.Tx) error {
		for _, w := range []store.NewWorkspace{
			{ID: "ws_a", RootPath: "/rules/ws_a", RepositoryKey: "local-path:shared"},
			{ID: "ws_b", RootPath: "/rules/ws_b", RepositoryKey: "local-path:shared"},
		} {
			w.EpochID, w.Name, w.CreatedAt = "epoch_"+w.ID, w.ID, "2026-01-01T00:00:00.000Z"
			if err := tx.CreateWorkspace(ctx, w); err != nil {
				return err
			}
		}
		for _, w := range []struct{ id, root, key string }{
			{"wt_0", "/rules/ws_a", "local-git:own"},
			{"wt_2", "/rules/two", "local-path:shared"},
		} {
			facts := store.WorktreeFacts{Identity: gitstate.Identity{RootPath: w.root, RepositoryKey: w.key,
				Fingerprint: "path:" + w.id, WorktreeID: w.id}}
			if err := tx.AddWorktree(ctx, "ws_a", facts, "2026-01-01T00:00:00.000Z"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("set up: %v", err)
	}
	cases := []struct {
		name, root, want string
		found            bool
	}{
		{"a worktree's root", "/rules/two", "local-path:shared", true},
		{"a workspace's root", "/rules/ws_b", "local-path:shared", true},
		{"a root both have: the worktree's", "/rules/ws_a", "local-git:own", true},
		{"an unknown root", "/nowhere", "", false},
		{"no root", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := st.Engine().Read(ctx, func(tx store.Tx) error {
				key, found, err := store.RepositoryAt(ctx, tx, c.root)
				if err == nil && (found != c.found || key != c.want) {
					t.Errorf("repository at %q: %q found=%v, want %q found=%v", c.root, key, found, c.want, c.found)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
