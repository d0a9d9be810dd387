package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/store"
)

// workspacesFilteredInCreationOrder lists workspaces by (created_at, id):
// every one, a repository's (none of another, none of an unknown one),
// the one rooted at a path, and both filters at once.
func workspacesFilteredInCreationOrder(t *testing.T, e store.Engine) {
	defer e.Close()
	for _, w := range []struct{ id, repo, at string }{
		{"ws_p_late", "local-git:split", "2026-01-01T00:00:02.000Z"},
		{"ws_p_b", "local-git:split", "2026-01-01T00:00:01.000Z"},
		{"ws_p_a", "local-git:split", "2026-01-01T00:00:01.000Z"},
		{"ws_p_alone", "local-git:whole", "2026-01-01T00:00:00.000Z"},
	} {
		write(t, e, func(ctx context.Context, tx store.Tx) error {
			return tx.CreateWorkspace(ctx, store.NewWorkspace{ID: w.id, EpochID: "epoch_" + w.id,
				RootPath: "/enginetest/" + w.id, Name: w.id, RepositoryKey: w.repo, CreatedAt: w.at})
		})
	}
	cases := []struct {
		name   string
		filter store.WorkspaceFilter
		want   []string
	}{
		{"every workspace", store.WorkspaceFilter{}, []string{"ws_p_alone", "ws_p_a", "ws_p_b", "ws_p_late"}},
		{"a split repository", store.WorkspaceFilter{RepositoryKey: "local-git:split"}, []string{"ws_p_a", "ws_p_b", "ws_p_late"}},
		{"a whole repository", store.WorkspaceFilter{RepositoryKey: "local-git:whole"}, []string{"ws_p_alone"}},
		{"an unknown repository", store.WorkspaceFilter{RepositoryKey: "local-git:unknown"}, []string{}},
		{"a root path", store.WorkspaceFilter{RootPath: "/enginetest/ws_p_b"}, []string{"ws_p_b"}},
		{"an unknown root path", store.WorkspaceFilter{RootPath: "/nowhere"}, []string{}},
		{"root and repository", store.WorkspaceFilter{RepositoryKey: "local-git:split", RootPath: "/enginetest/ws_p_a"}, []string{"ws_p_a"}},
		{"root of another repository", store.WorkspaceFilter{RepositoryKey: "local-git:whole", RootPath: "/enginetest/ws_p_a"}, []string{}},
	}
	for _, c := range cases {
		read(t, e, func(ctx context.Context, tx store.Tx) error {
			ws, err := tx.Workspaces(ctx, c.filter)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if got := ids(ws, func(w store.Workspace) string { return w.ID }); ws == nil || !slices.Equal(got, c.want) {
				t.Errorf("Workspaces(%s) = %#v, want %v", c.name, got, c.want)
			}
			return nil
		})
	}
}

// worktreeWritesChangedColumns checks Worktree and UpdateWorktree as
// storage: a worktree is found by id and by root path; an update stores
// the observed Git state and last-seen time given, clears them to NULL,
// and names only the columns that changed, so a column another write
// moved in the meantime keeps that write's value.
func worktreeWritesChangedColumns(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_wt")
	s := func(v string) *string { return &v }
	yes, no := true, false
	id := gitstate.Identity{RootPath: "/enginetest/ws_wt/one", RepositoryKey: "local-path:ws_wt", Fingerprint: "path:one",
		WorktreeID: "wt_one", GitCommonDirHash: s("common")}
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		return tx.AddWorktree(ctx, "ws_wt", store.WorktreeFacts{Identity: id, Branch: s("main"), HeadSHA: s("aaa"), Dirty: &no}, clock)
	})
	stored := worktree(t, e, store.WorktreeKey{ID: "wt_one"})
	if byRoot := worktree(t, e, store.WorktreeKey{RootPath: id.RootPath}); !equalWorktrees(byRoot, stored) {
		t.Fatalf("by root %+v, by id %+v: want the same row", byRoot, stored)
	}
	want := store.Worktree{ID: "wt_one", WorkspaceID: "ws_wt", RootPath: id.RootPath, RepositoryKey: id.RepositoryKey,
		GitCommonDirHash: s("common"), Branch: s("main"), HeadSHA: s("aaa"), Dirty: &no, RegisteredAt: clock, LastSeenAt: clock,
		Fingerprint: "path:one"}
	if !equalWorktrees(stored, want) {
		t.Fatalf("stored %+v, want %+v", stored, want)
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		if _, found, err := tx.Worktree(ctx, store.WorktreeKey{ID: "wt_none"}); err != nil || found {
			t.Errorf("an unknown worktree: found=%v, %v", found, err)
		}
		return nil
	})
	moved := stored
	moved.Branch, moved.HeadSHA, moved.Dirty, moved.LastSeenAt = s("topic"), s("bbb"), &yes, later
	update(t, e, stored, moved)
	if got := worktree(t, e, store.WorktreeKey{ID: "wt_one"}); !equalWorktrees(got, moved) {
		t.Fatalf("after an update %+v, want %+v", got, moved)
	}
	cleared := moved
	cleared.Branch, cleared.HeadSHA, cleared.Dirty = nil, nil, nil
	update(t, e, moved, cleared)
	if got := worktree(t, e, store.WorktreeKey{ID: "wt_one"}); !equalWorktrees(got, cleared) {
		t.Fatalf("after clearing %+v, want %+v", got, cleared)
	}
	// A before row that says branch and head were other than stored, and
	// an after row that changes only last_seen_at from that: the stored
	// branch and head are left as they are.
	stale := cleared
	stale.Branch, stale.HeadSHA = s("elsewhere"), s("ccc")
	seen := stale
	seen.LastSeenAt = anHourAfter
	update(t, e, stale, seen)
	kept := cleared
	kept.LastSeenAt = anHourAfter
	if got := worktree(t, e, store.WorktreeKey{ID: "wt_one"}); !equalWorktrees(got, kept) {
		t.Fatalf("an update of last_seen_at wrote other columns: %+v, want %+v", got, kept)
	}
	update(t, e, kept, kept)
}

func worktree(t *testing.T, e store.Engine, k store.WorktreeKey) store.Worktree {
	t.Helper()
	var w store.Worktree
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		var found bool
		var err error
		if w, found, err = tx.Worktree(ctx, k); err == nil && !found {
			err = fmt.Errorf("worktree %+v not found", k)
		}
		return err
	})
	return w
}

func update(t *testing.T, e store.Engine, before, after store.Worktree) {
	t.Helper()
	write(t, e, func(ctx context.Context, tx store.Tx) error { return tx.UpdateWorktree(ctx, before, after) })
}

func equalWorktrees(a, b store.Worktree) bool {
	return a.ID == b.ID && a.WorkspaceID == b.WorkspaceID && a.RootPath == b.RootPath && a.RepositoryKey == b.RepositoryKey &&
		str(a.GitCommonDirHash) == str(b.GitCommonDirHash) && str(a.Branch) == str(b.Branch) && str(a.HeadSHA) == str(b.HeadSHA) &&
		(a.Dirty == nil) == (b.Dirty == nil) && (a.Dirty == nil || *a.Dirty == *b.Dirty) &&
		a.RegisteredAt == b.RegisteredAt && a.LastSeenAt == b.LastSeenAt && a.Fingerprint == b.Fingerprint
}

// tasksOfAViewer lists the tasks a viewer holds or reported complete, as
// the session or as the actor label, in (created_at, id) order, and
// narrows them by stored status too.
func tasksOfAViewer(t *testing.T, e store.Engine) {
	defer e.Close()
	f := newTaskFixture(t, e, "ws_viewer", "local-path:viewer")
	for _, id := range []string{"task_held", "task_reported", "task_label", "task_open", "task_other"} {
		f.insert(t, id, nil, id != "task_label")
	}
	f.mustWrite(t, "set up", func(ctx context.Context, tx store.Tx) error {
		if err := claimed(ctx, tx, f, "task_held"); err != nil {
			return err
		}
		if err := reported(ctx, tx, f, "task_reported"); err != nil {
			return err
		}
		if err := f.update(ctx, tx, "task_label", clock, leasedTo(legacyLease("lease_label", "agent-ws_viewer", anHourAfter))); err != nil {
			return err
		}
		return f.update(ctx, tx, "task_other", clock, leasedTo(legacyLease("lease_other", "someone-else", anHourAfter)))
	})
	session := store.Viewer{SessionID: f.sessionID, Actor: "agent-ws_viewer"}
	label := store.Viewer{Actor: "agent-ws_viewer"}
	cases := []struct {
		name   string
		filter store.TaskFilter
		want   []string
	}{
		{"every task", store.TaskFilter{}, []string{"task_held", "task_label", "task_open", "task_other", "task_reported"}},
		{"the session's", store.TaskFilter{HeldOrReportedBy: session}, []string{"task_held", "task_reported"}},
		{"the session's claimed", store.TaskFilter{HeldOrReportedBy: session, Status: store.TaskClaimed}, []string{"task_held"}},
		// The session's tasks carry its actor label as assignee and
		// reporter too: a label's view holds them and its own claim.
		{"the label's", store.TaskFilter{HeldOrReportedBy: label}, []string{"task_held", "task_label", "task_reported"}},
		{"claimed", store.TaskFilter{Status: store.TaskClaimed}, []string{"task_held", "task_label", "task_other"}},
		{"another session's", store.TaskFilter{HeldOrReportedBy: store.Viewer{SessionID: "session_nobody", Actor: "agent-ws_viewer"}}, []string{}},
	}
	for _, c := range cases {
		read(t, e, func(ctx context.Context, tx store.Tx) error {
			tasks, err := tx.Tasks(ctx, "ws_viewer", c.filter)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if got := ids(tasks, func(t store.Task) string { return t.ID }); tasks == nil || !slices.Equal(got, c.want) {
				t.Errorf("Tasks(%s) = %#v, want %v", c.name, got, c.want)
			}
			return nil
		})
	}
}
