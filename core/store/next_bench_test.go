package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// BenchmarkNextAtHeadInLongHistory measures a session's poll at the head
// of a workspace holding a few open tasks (each depending on a completed
// one) beside many completed ones. It guards the bounded read of
// core/store/unfinished_tasks.go: the poll lists the unfinished tasks and
// reads the dependencies by id, so the completed tasks cost only their
// index entries and the path rules' review check (the floor
// docs/performance.md names), never a decoded row.
func BenchmarkNextAtHeadInLongHistory(b *testing.B) {
	for _, completed := range []int{100, 10000} {
		b.Run(fmt.Sprintf("completed=%d", completed), func(b *testing.B) {
			st, ss := benchSession(b)
			ctx := context.Background()
			if err := rawWrite(ctx, st, func(tx *Tx) error {
				return finishedHistory(ctx, tx, ss.Workspace.ID, completed)
			}); err != nil {
				b.Fatal(err)
			}
			cred := benchCred(ss)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				next, err := st.NextForSession(ctx, cred, nil, 50)
				if err != nil {
					b.Fatal(err)
				}
				if len(next.ClaimableTasks) != 5 {
					b.Fatalf("claimable = %d tasks, want 5", len(next.ClaimableTasks))
				}
			}
		})
	}
}

// finishedHistory stores n completed legacy tasks and 5 open ones, each
// open one depending on an early completed task.
func finishedHistory(ctx context.Context, tx store.Tx, ws string, n int) error {
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("task_done_%06d", i)
		at := fmt.Sprintf("2026-01-01T00:00:00.%06dZ", i)
		if err := tx.InsertTask(ctx, store.NewTask{ID: id, WorkspaceID: ws, Title: "finished work " + id,
			PathScopes: []string{"src/" + id}, CreatedAt: at}); err != nil {
			return err
		}
		before, _, err := tx.Task(ctx, ws, id)
		if err != nil {
			return err
		}
		after := before
		after.Status, after.Version, after.CompletedAt = store.TaskCompleted, before.Version+1, &at
		if err := tx.UpdateTask(ctx, before, after); err != nil {
			return err
		}
	}
	for i := 0; i < 5; i++ {
		id := fmt.Sprintf("task_open_%d", i)
		if err := tx.InsertTask(ctx, store.NewTask{ID: id, WorkspaceID: ws, Title: "next work", CreatedAt: "2026-02-01T00:00:00Z",
			Dependencies: []string{fmt.Sprintf("task_done_%06d", i)}, PathScopes: []string{"next/" + id}}); err != nil {
			return err
		}
	}
	return nil
}
