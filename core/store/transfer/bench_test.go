package transfer

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqlite"
)

// The copy benchmarks move a 50,000-event journal each way:
//
//	eval "$(.ci/postgres start)"
//	nice -n 19 go test -run '^$' -bench Copy -benchtime 3x ./core/store/transfer
//
// ns/op is one whole copy: source verification, the load, the target's
// byte-for-byte re-read and chain verification, and the commit.

const benchEvents = 50000

func BenchmarkCopy50000(b *testing.B) {
	ctx := context.Background()
	src := filepath.Join(b.TempDir(), "bench.sqlite")
	buildJournal(b, src, benchEvents)
	b.Run("sqlite-to-postgres", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			url := freshDatabase(b)
			b.StartTimer()
			sum, err := Copy(ctx, Options{From: src, To: url})
			if err != nil || sum.Events != benchEvents {
				b.Fatalf("copy: %v (%d events)", err, sum.Events)
			}
		}
		b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
	url := freshDatabase(b)
	if _, err := Copy(ctx, Options{From: src, To: url}); err != nil {
		b.Fatal(err)
	}
	b.Run("postgres-to-sqlite", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			dst := filepath.Join(b.TempDir(), "copy.sqlite")
			sum, err := Copy(ctx, Options{From: url, To: dst})
			if err != nil || sum.Events != benchEvents {
				b.Fatalf("copy: %v (%d events)", err, sum.Events)
			}
		}
		b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
	b.Run("sqlite-to-sqlite", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			dst := filepath.Join(b.TempDir(), "copy.sqlite")
			if _, err := Copy(ctx, Options{From: src, To: dst}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(benchEvents)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
	})
}

// buildJournal writes a SQLite journal of n events in one workspace,
// 500 per transaction, through the engine as the rules append.
func buildJournal(b *testing.B, path string, n int) {
	b.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, sqlite.Options{Path: path})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	e := sqlite.Engine{DB: db}
	const clock = "2026-01-01T00:00:00.000Z"
	if err := e.Write(ctx, func(tx store.Tx) error {
		return tx.CreateWorkspace(ctx, store.NewWorkspace{ID: "ws_bench", EpochID: "epoch_bench", RootPath: "/bench",
			Name: "bench", RepositoryKey: "local-path:bench", CreatedAt: clock})
	}); err != nil {
		b.Fatal(err)
	}
	for start := 0; start < n; start += 500 {
		if err := e.Write(ctx, func(tx store.Tx) error {
			for i := start; i < min(n, start+500); i++ {
				h, _, err := tx.Head(ctx, "ws_bench")
				if err != nil {
					return err
				}
				id := strconv.Itoa(i)
				ev := journal.Event{WorkspaceID: "ws_bench", EpochID: h.EpochID, Sequence: h.Sequence + 1,
					ID: "event_" + id, Protocol: journal.ProtocolV2, Type: string(journal.KindTaskProgressed),
					EntityID: "task_1", Actor: "bench", OccurredAt: clock,
					PayloadJSON: []byte(`{"message":"progress note ` + id + ` with some ordinary text in it"}`), PrevHash: h.Hash}
				var hasher journal.Hasher
				if ev.Hash, err = hasher.Hash(&ev); err != nil {
					return err
				}
				if err := tx.Append(ctx, &ev); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
	}
}
