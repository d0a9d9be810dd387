package storetest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// viewsListInOrder stores workspaces, worktrees and sessions out of order
// and checks the order each view list promises, and that a root path
// finds the worktree or the workspace registered there.
func viewsListInOrder(t *testing.T, e store.Engine) {
	defer e.Close()
	ctx := context.Background()
	day := func(d int) string { return fmt.Sprintf("2026-01-%02dT00:00:00.000Z", d) }
	err := e.Write(ctx, func(tx store.Tx) error {
		for _, w := range []store.NewWorkspace{
			{ID: "ws_late", CreatedAt: day(2), RepositoryKey: "local-path:late"},
			{ID: "ws_b", CreatedAt: day(1), RepositoryKey: "local-path:shared"},
			{ID: "ws_a", CreatedAt: day(1), RepositoryKey: "local-path:shared"},
		} {
			w.EpochID, w.RootPath, w.Name = "epoch_"+w.ID, "/enginetest/"+w.ID, w.ID
			if err := tx.CreateWorkspace(ctx, w); err != nil {
				return err
			}
		}
		for _, w := range []struct{ id, root, key, at string }{
			{"wt_1", "/r/one", "local-path:shared", day(3)},
			{"wt_0", "/enginetest/ws_a", "local-git:own", day(3)},
			{"wt_2", "/r/two", "local-path:shared", day(2)},
		} {
			facts := store.WorktreeFacts{Identity: gitstate.Identity{RootPath: w.root, RepositoryKey: w.key,
				Fingerprint: "path:" + w.id, WorktreeID: w.id}}
			if err := tx.AddWorktree(ctx, "ws_a", facts, w.at); err != nil {
				return err
			}
		}
		release, err := tx.TakeWriteGuard(ctx, "enginetest-views")
		if err != nil {
			return err
		}
		genesis := journal.Anchor{EpochID: "epoch_ws_a", Hash: journal.GenesisHash}
		for _, s := range []struct{ id, joined string }{{"s_b", day(2)}, {"s_c", day(1)}, {"s_a", day(2)}, {"s_d", day(1)}} {
			if err := tx.InsertSession(ctx, store.NewSession{ID: s.id, WorkspaceID: "ws_a", WorktreeID: "wt_1",
				Actor: "actor_" + s.id, TokenHash: "hash_" + s.id, JoinedAt: s.joined, Cursor: genesis}); err != nil {
				return err
			}
		}
		c, _, err := tx.Session(ctx, "s_c")
		if err != nil {
			return err
		}
		ended := c
		ended.Status, ended.Generation = store.SessionEnded, 2
		if ok, err := tx.UpdateSession(ctx, c, ended); err != nil || !ok {
			return fmt.Errorf("end s_c: ok=%v, %v", ok, err)
		}
		return release(ctx)
	})
	if err != nil {
		t.Fatalf("set up: %v", err)
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		ws, err := tx.Workspaces(ctx, store.WorkspaceFilter{})
		if err != nil {
			return err
		}
		if got := ids(ws, func(w store.Workspace) string { return w.ID }); !slices.Equal(got, []string{"ws_a", "ws_b", "ws_late"}) {
			return fmt.Errorf("Workspaces: %v, want (created_at, id) order ws_a, ws_b, ws_late", got)
		}
		if ws[0].EventHeadHash != journal.GenesisHash || ws[0].RepositoryKey != "local-path:shared" {
			return fmt.Errorf("Workspaces: first row %+v lacks its head or repository", ws[0])
		}
		wts, err := tx.Worktrees(ctx, "ws_a")
		if err != nil {
			return err
		}
		if got := ids(wts, func(w store.Worktree) string { return w.ID }); !slices.Equal(got, []string{"wt_2", "wt_0", "wt_1"}) {
			return fmt.Errorf("Worktrees: %v, want (registered_at, id) order wt_2, wt_0, wt_1", got)
		}
		sess, err := tx.Sessions(ctx, "ws_a", "")
		if err != nil {
			return err
		}
		if got := ids(sess, func(s store.CoordinationSession) string { return s.ID }); !slices.Equal(got, []string{"s_c", "s_d", "s_a", "s_b"}) {
			return fmt.Errorf("Sessions: %v, want (joined_at, id) order s_c, s_d, s_a, s_b", got)
		}
		active, err := tx.Sessions(ctx, "ws_a", store.SessionActive)
		if err != nil {
			return err
		}
		if got := ids(active, func(s store.CoordinationSession) string { return s.ID }); !slices.Equal(got, []string{"s_d", "s_a", "s_b"}) {
			return fmt.Errorf("Sessions active: %v, want s_d, s_a, s_b (s_c ended)", got)
		}
		for _, c := range []struct {
			root, worktree string
			workspaces     []string
		}{
			{"/r/two", "wt_2", []string{}},
			{"/enginetest/ws_b", "", []string{"ws_b"}},
			{"/enginetest/ws_a", "wt_0", []string{"ws_a"}},
			{"/nowhere", "", []string{}},
		} {
			wt, found, err := tx.Worktree(ctx, store.WorktreeKey{RootPath: c.root})
			if err != nil || found != (c.worktree != "") || wt.ID != c.worktree {
				return fmt.Errorf("Worktree at %s: %q found=%v (%v), want %q", c.root, wt.ID, found, err, c.worktree)
			}
			at, err := tx.Workspaces(ctx, store.WorkspaceFilter{RootPath: c.root})
			if got := ids(at, func(w store.Workspace) string { return w.ID }); err != nil || !slices.Equal(got, c.workspaces) {
				return fmt.Errorf("Workspaces at %s: %v (%v), want %v", c.root, got, err, c.workspaces)
			}
		}
		return nil
	})
}

// viewListsAreNeverNil reads every view list where nothing matches: each
// is empty, not nil.
func viewListsAreNeverNil(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_empty")
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		who := store.Viewer{SessionID: "s_nobody", Actor: "nobody"}
		label := store.Viewer{Actor: "nobody"}
		lists := map[string]func() (any, error){
			"Worktrees":     func() (any, error) { return tx.Worktrees(ctx, "ws_empty") },
			"Workspaces at": func() (any, error) { return tx.Workspaces(ctx, store.WorkspaceFilter{RootPath: "/nowhere"}) },
			"Workspaces of": func() (any, error) {
				return tx.Workspaces(ctx, store.WorkspaceFilter{RepositoryKey: "local-path:none"})
			},
			"Sessions": func() (any, error) { return tx.Sessions(ctx, "ws_empty", "") },
			"Handoffs": func() (any, error) { return tx.Handoffs(ctx, "ws_empty", store.HandoffFilter{}) },
			"Handoffs filtered": func() (any, error) {
				return tx.Handoffs(ctx, "ws_empty", store.HandoffFilter{ToActor: "nobody", Status: store.HandoffPending})
			},
			"Tasks of a session": func() (any, error) {
				return tx.Tasks(ctx, "ws_empty", store.TaskFilter{HeldOrReportedBy: who})
			},
			"Tasks of a label": func() (any, error) {
				return tx.Tasks(ctx, "ws_empty", store.TaskFilter{HeldOrReportedBy: label})
			},
			"ReservingTasks": func() (any, error) { return tx.ReservingTasks(ctx, "local-path:ws_empty") },
		}
		for name, list := range lists {
			got, err := list()
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if v := reflect.ValueOf(got); v.IsNil() || v.Len() != 0 {
				return fmt.Errorf("%s: %#v, want an empty, non-nil list", name, got)
			}
		}
		return nil
	})
}

func ids[T any](list []T, id func(T) string) []string {
	out := make([]string, len(list))
	for i := range list {
		out[i] = id(list[i])
	}
	return out
}
