package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// benchBound opens a fresh store with one session started in it and
// returns that session's credential.
func benchBound(b *testing.B) (*store.Store, store.Credential) {
	st, ss := benchSession(b)
	return st, benchCred(ss)
}

// benchReport is a typical report of a few sentences.
func benchReport(key string) store.AppendReportInput {
	return store.AppendReportInput{IdempotencyKey: key, Kind: "observation",
		Body: "Parser step done; tokenizer tests green, docs pending review by beta. The <lexer> & the parser agree on spans."}
}

// BenchmarkAppendReportFresh measures one new report: the whole mutation
// path (authenticate, receipt lookup, guard row, report row, journal event,
// receipt written with its answer, session touched, COMMIT).
func BenchmarkAppendReportFresh(b *testing.B) {
	st, cred := benchBound(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.AppendReport(ctx, cred, benchReport(fmt.Sprintf("r%d", i))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendReportReplay measures an exact retry answered from its
// receipt.
func BenchmarkAppendReportReplay(b *testing.B) {
	st, cred := benchBound(b)
	ctx := context.Background()
	if _, err := st.AppendReport(ctx, cred, benchReport("once")); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.AppendReport(ctx, cred, benchReport("once")); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecordProgressLegacy measures a legacy lease-holder write whose
// answer and receipt are the whole task.
func BenchmarkRecordProgressLegacy(b *testing.B) {
	st, ws := benchStore(b, 1)
	ctx := context.Background()
	who := store.LabelActor("bench")
	if _, err := st.CreateTask(ctx, who, store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: "c", TaskID: ptr("task_bench"), Title: "bench"}); err != nil {
		b.Fatal(err)
	}
	if _, err := st.ClaimTask(ctx, who, store.ClaimInput{WorkspaceID: ws, TaskID: "task_bench", IdempotencyKey: "k", ExpectedVersion: 1}); err != nil {
		b.Fatal(err)
	}
	t, err := st.GetTask(ctx, ws, "task_bench")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := store.LeaseInput{WorkspaceID: ws, TaskID: t.ID, LeaseID: *t.LeaseID, IdempotencyKey: fmt.Sprintf("p%d", i), ExpectedVersion: t.Version + int64(i)}
		if _, err := st.RecordProgress(ctx, who, in, "step done; tests green"); err != nil {
			b.Fatal(err)
		}
	}
}
