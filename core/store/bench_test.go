package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// benchStore opens a fresh store with one workspace holding n events
// (written in one transaction, so setup stays quick).
func benchStore(b *testing.B, n int) (*store.Store, string) {
	b.Helper()
	ctx := context.Background()
	st, err := backend.Open(ctx, backend.Options{Path: filepath.Join(b.TempDir(), "bench.sqlite")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	opened, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: b.TempDir(), Actor: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	ws := opened.Workspace.ID
	err = rawWrite(ctx, st, func(tx *Tx) error {
		for i := 1; i < n; i++ {
			if _, err := st.AppendEvent(ctx, tx, ws, benchEvent(i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return st, ws
}

// benchReportStore is benchStore with each event followed by a receipt row
// of about 800 bytes, so that the journal's pages lie between those of
// another table, as they do in a file grown by report appends (event,
// report, receipt and their indexes written together).
func benchReportStore(b *testing.B, n int) (*store.Store, string) {
	b.Helper()
	st, ws := benchStore(b, 1)
	ctx := context.Background()
	response := strings.Repeat("r", 800)
	err := rawWrite(ctx, st, func(tx *Tx) error {
		for i := 1; i < n; i++ {
			if _, err := st.AppendEvent(ctx, tx, ws, benchEvent(i)); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT INTO mutations (workspace_id, actor, idempotency_key, operation,
  request_hash, response_json, created_at) VALUES (?, 'bench', ?, 'report_append', '', ?, '')`,
				ws, fmt.Sprintf("key-%d", i), response); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return st, ws
}

// benchEvent is a typical task event payload (~300 bytes).
func benchEvent(i int) store.NewEvent {
	return store.NewEvent{Type: "task.progressed", EntityID: fmt.Sprintf("task_%d", i%97), Actor: "codex:alpha",
		Payload: map[string]any{"message": fmt.Sprintf("Parser step %d done; tokenizer tests green, docs pending review by beta", i),
			"version": i, "lease_id": "lease_5f0c2f4e-7f61-4b7b-9d43-0f5f6c1d2e3a", "path_scopes": []any{"src/parser", "docs/parser.md"}}}
}

// BenchmarkAppendEvent measures one committed append: BEGIN IMMEDIATE,
// head read, canonical payload, hash, insert, head update, COMMIT.
func BenchmarkAppendEvent(b *testing.B) {
	st, ws := benchStore(b, 1)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := rawWrite(ctx, st, func(tx *Tx) error {
			_, err := st.AppendEvent(ctx, tx, ws, benchEvent(i))
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyJournal measures full verification from genesis at
// several journal lengths; events/s is reported per run.
func BenchmarkVerifyJournal(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			st, ws := benchStore(b, n)
			ctx := context.Background()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ok, err := st.VerifyJournal(ctx, ws)
				if err != nil || !ok {
					b.Fatalf("verify: %v %v", ok, err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// BenchmarkVerifyInterleavedJournal measures full verification of 50,000
// events whose pages lie between those of another table, the shape of a
// journal grown by report appends; events/s is reported.
func BenchmarkVerifyInterleavedJournal(b *testing.B) {
	const n = 50000
	st, ws := benchReportStore(b, n)
	ctx := context.Background()
	for b.Loop() {
		ok, err := st.VerifyJournal(ctx, ws)
		if err != nil || !ok {
			b.Fatalf("verify: %v %v", ok, err)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkOpenVerifiesJournals measures opening an existing file whose
// one journal holds 20,000 events: open checks its shape and verifies
// every journal before serving.
func BenchmarkOpenVerifiesJournals(b *testing.B) {
	st, _ := benchStore(b, 20000)
	path := st.Path()
	ctx := context.Background()
	for b.Loop() {
		again, err := backend.Open(ctx, backend.Options{Path: path})
		if err != nil {
			b.Fatal(err)
		}
		again.Close()
	}
}
