package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchSession opens a fresh store and starts one session in it.
func benchSession(b *testing.B) (*Store, Credential) {
	b.Helper()
	ctx := context.Background()
	dir := b.TempDir()
	st, err := Open(ctx, Options{Path: filepath.Join(dir, "bench.sqlite")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	root := filepath.Join(dir, "repo")
	if err := os.Mkdir(root, 0o700); err != nil {
		b.Fatal(err)
	}
	ss, err := st.StartSession(ctx, StartSessionInput{RootPath: root, Actor: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	return st, Credential{SessionID: ss.Session.ID, Token: ss.Token, Generation: ss.Session.Generation}
}

// benchReport is a typical report of a few sentences.
func benchReport(key string) AppendReportInput {
	return AppendReportInput{IdempotencyKey: key, Kind: "observation",
		Body: "Parser step done; tokenizer tests green, docs pending review by beta. The <lexer> & the parser agree on spans."}
}

// BenchmarkAppendReportFresh measures one new report: the whole mutation
// path (authenticate, receipt lookup, guard row, report row, journal event,
// receipt written with its answer, session touched, COMMIT).
func BenchmarkAppendReportFresh(b *testing.B) {
	st, cred := benchSession(b)
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
	st, cred := benchSession(b)
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
	who := LabelActor("bench")
	if _, err := st.CreateTask(ctx, who, CreateTaskInput{WorkspaceID: ws, IdempotencyKey: "c", TaskID: ptr("task_bench"), Title: "bench"}); err != nil {
		b.Fatal(err)
	}
	if _, err := st.ClaimTask(ctx, who, ClaimInput{WorkspaceID: ws, TaskID: "task_bench", IdempotencyKey: "k", ExpectedVersion: 1}); err != nil {
		b.Fatal(err)
	}
	t, err := st.GetTask(ctx, ws, "task_bench")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := LeaseInput{WorkspaceID: ws, TaskID: t.ID, LeaseID: *t.LeaseID, IdempotencyKey: fmt.Sprintf("p%d", i), ExpectedVersion: t.Version + int64(i)}
		if _, err := st.RecordProgress(ctx, who, in, "step done; tests green"); err != nil {
			b.Fatal(err)
		}
	}
}
