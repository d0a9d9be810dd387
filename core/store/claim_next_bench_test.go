package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// BenchmarkClaimTask measures one legacy claim of a task with a path
// scope while 20 other claims hold scopes in the repository: receipt
// lookup, task read, dependency and path-conflict checks (every reserving
// task of the repository read), lease write, event, receipt, COMMIT. The
// lease is released after each claim, untimed, so every claim finds the
// same state.
func BenchmarkClaimTask(b *testing.B) {
	st, ws := benchStore(b, 1)
	ctx := context.Background()
	who := store.LabelActor("bench")
	for i := 0; i <= 20; i++ {
		id := fmt.Sprintf("task_%d", i)
		if _, err := st.CreateTask(ctx, who, store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: "c" + id, TaskID: ptr(id),
			Title: "bench", PathScopes: []string{"src/" + id}}); err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			continue
		}
		if _, err := st.ClaimTask(ctx, who, store.ClaimInput{WorkspaceID: ws, TaskID: id, IdempotencyKey: "k" + id,
			ExpectedVersion: 1}); err != nil {
			b.Fatal(err)
		}
	}
	version := int64(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.ClaimTask(ctx, who, store.ClaimInput{WorkspaceID: ws, TaskID: "task_0", IdempotencyKey: fmt.Sprintf("k%d", i),
			ExpectedVersion: version}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		t, err := st.GetTask(ctx, ws, "task_0")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := st.ReleaseLease(ctx, who, store.LeaseInput{WorkspaceID: ws, TaskID: t.ID, LeaseID: *t.LeaseID,
			IdempotencyKey: fmt.Sprintf("r%d", i), ExpectedVersion: t.Version}, nil); err != nil {
			b.Fatal(err)
		}
		version = t.Version + 1
		b.StartTimer()
	}
}

// BenchmarkNextAndAck measures one session poll and the acknowledgement
// of the page it returned; a report is appended before each round,
// untimed.
func BenchmarkNextAndAck(b *testing.B) {
	st, ss := benchSession(b)
	ctx := context.Background()
	cred := benchCred(ss)
	version := ss.Session.CursorVersion
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if _, err := st.AppendReport(ctx, cred, benchReport(fmt.Sprintf("r%d", i))); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		next, err := st.NextForSession(ctx, cred, nil, 50)
		if err != nil {
			b.Fatal(err)
		}
		sess, err := st.AckCursor(ctx, cred, ss.Session.WorkspaceID, next.Events.NextAnchor, version)
		if err != nil {
			b.Fatal(err)
		}
		version = sess.CursorVersion
	}
}

// benchClaimedStore is a workspace with 30 tasks claimed by one session,
// each over a path scope of its own, and 20 reports: what a busy
// repository's status and polls read.
func benchClaimedStore(b *testing.B) (*store.Store, store.StartedSession) {
	b.Helper()
	st, ss := benchSession(b)
	ctx := context.Background()
	cred := benchCred(ss)
	who := store.SessionActor(cred)
	ws := ss.Session.WorkspaceID
	for i := range 30 {
		id := fmt.Sprintf("task_%d", i)
		if _, err := st.CreateTask(ctx, who, store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: "c" + id, TaskID: ptr(id),
			Title: "bench " + id, PathScopes: []string{"src/" + id + "/", "docs/" + id + ".md"}}); err != nil {
			b.Fatal(err)
		}
		if _, err := st.ClaimTask(ctx, who, store.ClaimInput{WorkspaceID: ws, TaskID: id, IdempotencyKey: "k" + id,
			ExpectedVersion: 1}); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 20 {
		if _, err := st.AppendReport(ctx, cred, benchReport(fmt.Sprintf("r%d", i))); err != nil {
			b.Fatal(err)
		}
	}
	return st, ss
}

// BenchmarkStatusWithClaims measures collab_workspace_status's read over
// 30 claimed tasks and 20 reports (the store's part; rendering the
// answer is hosts/mcp's BenchmarkRenderLargeAnswer).
func BenchmarkStatusWithClaims(b *testing.B) {
	st, ss := benchClaimedStore(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.Status(ctx, ss.Session.WorkspaceID); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNextWithClaims measures one session poll over 30 claimed
// tasks, its own, with nothing new to read.
func BenchmarkNextWithClaims(b *testing.B) {
	st, ss := benchClaimedStore(b)
	ctx := context.Background()
	cred := benchCred(ss)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.NextForSession(ctx, cred, nil, 20); err != nil {
			b.Fatal(err)
		}
	}
}
