package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// benchSession opens a fresh store and starts one session in it.
func benchSession(b testing.TB) (*store.Store, store.StartedSession) {
	b.Helper()
	ctx := context.Background()
	dir := b.TempDir()
	st, err := backend.Open(ctx, backend.Options{Path: filepath.Join(dir, "bench.sqlite")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	root := filepath.Join(dir, "main")
	if err := os.MkdirAll(root, 0o700); err != nil {
		b.Fatal(err)
	}
	ss, err := st.StartSession(ctx, store.StartSessionInput{RootPath: root, Actor: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	return st, ss
}

func benchCred(ss store.StartedSession) store.Credential {
	return store.Credential{SessionID: ss.Session.ID, Token: ss.Token, Generation: ss.Session.Generation}
}

// benchReports posts n reports, each citing the previous one, and
// returns the last report's id.
func benchReports(b *testing.B, st *store.Store, ss store.StartedSession, n int, prefix string) {
	b.Helper()
	for i := 0; i < n; i++ {
		if _, err := st.AppendReport(context.Background(), benchCred(ss), store.AppendReportInput{
			IdempotencyKey: fmt.Sprintf("%s-%d", prefix, i), Kind: "observation",
			Body: fmt.Sprintf("Parser step %d done; tokenizer tests green", i),
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendReport measures one posted report: authentication,
// receipt lookup, validation, event, row, receipt, commit.
func BenchmarkAppendReport(b *testing.B) {
	st, ss := benchSession(b)
	b.ResetTimer()
	benchReports(b, st, ss, b.N, "r")
}

// BenchmarkListReports measures collab_report_list's default page of 100
// out of 300 reports.
func BenchmarkListReports(b *testing.B) {
	st, ss := benchSession(b)
	benchReports(b, st, ss, 300, "seed")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.ListReports(ctx, store.ListReportsInput{WorkspaceID: ss.Workspace.ID}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListPresence measures listing 50 presence hints.
func BenchmarkListPresence(b *testing.B) {
	st, ss := benchSession(b)
	ctx := context.Background()
	for i := 0; i < 50; i++ {
		if _, err := st.JoinPresence(ctx, store.JoinInput{WorkspaceID: ss.Workspace.ID, ClientInstanceID: fmt.Sprintf("client-%d", i),
			ActorLabel: "agent", RuntimeKind: "codex", Capabilities: []string{"code.review"}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.ListPresence(ctx, ss.Workspace.ID, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSessionRead measures Store.Session.
func BenchmarkSessionRead(b *testing.B) {
	st, ss := benchSession(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.Session(ctx, ss.Session.ID); err != nil {
			b.Fatal(err)
		}
	}
}
