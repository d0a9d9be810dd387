package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// benchBusyWorkspace is benchClaimedStore (30 tasks claimed by the
// session, 20 reports) with 200 more open tasks nobody holds: a wake
// check reads the session's tasks among all of the workspace's.
func benchBusyWorkspace(b *testing.B) (*store.Store, store.StartedSession) {
	b.Helper()
	st, ss := benchClaimedStore(b)
	ctx := context.Background()
	who := store.LabelActor("other")
	for i := range 200 {
		id := fmt.Sprintf("open_%d", i)
		if _, err := st.CreateTask(ctx, who, store.CreateTaskInput{WorkspaceID: ss.Session.WorkspaceID,
			IdempotencyKey: "c" + id, TaskID: ptr(id), Title: "open " + id}); err != nil {
			b.Fatal(err)
		}
	}
	return st, ss
}

// BenchmarkWakeWithClaims measures one wake check (what a hook's peek
// reads) of a session holding 30 of the workspace's 230 tasks.
func BenchmarkWakeWithClaims(b *testing.B) {
	st, ss := benchBusyWorkspace(b)
	ctx := context.Background()
	cred := benchCred(ss)
	b.ReportAllocs()
	for b.Loop() {
		snap, err := st.WakeForSession(ctx, cred, nil, 50)
		if err != nil || len(snap.Tasks) != 30 {
			b.Fatalf("wake: %d tasks, %v", len(snap.Tasks), err)
		}
	}
}

// BenchmarkGuardReservations measures the path guard's read: the
// repository of a worktree root, then every reservation in it (30
// claimed scopes).
func BenchmarkGuardReservations(b *testing.B) {
	st, ss := benchBusyWorkspace(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, found, err := st.RepositoryReservations(ctx, ss.Worktree.RootPath)
		if err != nil || !found || len(res) != 30 {
			b.Fatalf("reservations: %d found=%v, %v", len(res), found, err)
		}
	}
}

// BenchmarkReopenWorkspace measures opening a registered worktree again:
// the worktree read by root, the record of its Git state, the workspace.
func BenchmarkReopenWorkspace(b *testing.B) {
	st, ss := benchSession(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: ss.Worktree.RootPath, Actor: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPeekWithClaims measures a whole peek of the session of
// BenchmarkWakeWithClaims as a hook runs it, apart from process start:
// open the file read-only, read the wake snapshot, close.
func BenchmarkPeekWithClaims(b *testing.B) {
	st, ss := benchBusyWorkspace(b)
	ctx := context.Background()
	cred := benchCred(ss)
	path := st.Path()
	b.ReportAllocs()
	for b.Loop() {
		ro, err := backend.Open(ctx, backend.Options{Path: path, ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		snap, err := ro.WakeForSession(ctx, cred, nil, 50)
		if err != nil || len(snap.Tasks) != 30 {
			b.Fatalf("wake: %d tasks, %v", len(snap.Tasks), err)
		}
		ro.Close()
	}
}
