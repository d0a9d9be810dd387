package postgres

import (
	"context"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqlite"
	"github.com/agenttool/collab/core/store/storetest"
)

// The benchmarks run each measurement on both engines in one run, so that
// their ratio is measured under the same load:
//
//	eval "$(.ci/postgres start)"
//	nice -n 19 go test -run '^$' -bench Append -benchtime 2000x ./core/store/postgres
//	nice -n 19 go test -run '^$' -bench Verify -benchtime 3x ./core/store/postgres
//
// They measure the engines alone (one event appended per transaction, a
// whole chain verified), not the rules above them.

type engineCase struct {
	name string
	// openN opens n engines on one new journal, as n processes would.
	openN func(b *testing.B, n int) []store.Engine
}

func (c engineCase) open(b *testing.B) store.Engine { return c.openN(b, 1)[0] }

// reportRetries adds, for a PostgreSQL engine, how many attempts per
// commit ended in a serialization failure (40001) or a deadlock (40P01).
func reportRetries(b *testing.B, name string, all ...store.Engine) {
	var commits, serialization, deadlocks int64
	for _, e := range all {
		pg, ok := e.(*Engine)
		if !ok {
			return
		}
		commits += pg.stats.commits.Load()
		serialization += pg.stats.serialization.Load()
		deadlocks += pg.stats.deadlocks.Load()
	}
	b.ReportMetric(float64(serialization)/float64(max(1, commits)), name+"-40001/commit")
	b.ReportMetric(float64(deadlocks)/float64(max(1, commits)), name+"-40P01/commit")
}

func enginesOf(b *testing.B) []engineCase {
	testServer(b)
	return []engineCase{
		{"sqlite", func(b *testing.B, n int) []store.Engine {
			path := filepath.Join(b.TempDir(), "bench.sqlite")
			out := make([]store.Engine, n)
			for i := range out {
				db, err := sqlite.Open(context.Background(), sqlite.Options{Path: path})
				if err != nil {
					b.Fatal(err)
				}
				out[i] = sqlite.Engine{DB: db}
			}
			return out
		}},
		{"postgres", func(b *testing.B, n int) []store.Engine { return openPostgres(b, n, false) }},
		// The engine queuing its writers in the process only, not in the
		// server (serverturn.go).
		{"postgres-processturns", func(b *testing.B, n int) []store.Engine {
			engines := openPostgres(b, n, false)
			for _, e := range engines {
				e.(*Engine).processTurnsOnly = true
			}
			return engines
		}},
		// The engine without its workspace queue (queue.go): every
		// writer waits for the row inside its transaction, and runs
		// again after a pause.
		{"postgres-firstcome", func(b *testing.B, n int) []store.Engine { return openPostgres(b, n, true) }},
	}
}

func openPostgres(b *testing.B, n int, firstComeOnly bool) []store.Engine {
	url := freshDatabase(b)
	out := make([]store.Engine, n)
	for i := range out {
		e, err := Open(context.Background(), url)
		if err != nil {
			b.Fatal(err)
		}
		e.firstComeOnly = firstComeOnly
		out[i] = e
	}
	return out
}

const benchClock = "2026-01-01T00:00:00.000Z"

// analyze gathers a PostgreSQL journal's statistics, as autovacuum soon
// does on a real server, so that the planner sees its tables as they are
// (tiny, here) rather than of an assumed size.
func analyze(b *testing.B, e store.Engine) {
	if pg, ok := e.(*Engine); ok {
		if _, err := pg.pool.ExecContext(context.Background(), "ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchWorkspace(b *testing.B, e store.Engine, id string) {
	b.Helper()
	ctx := context.Background()
	if err := e.Write(ctx, func(tx store.Tx) error {
		return tx.CreateWorkspace(ctx, store.NewWorkspace{ID: id, EpochID: "epoch_" + id, RootPath: "/bench/" + id,
			Name: id, RepositoryKey: "local-path:" + id, CreatedAt: benchClock})
	}); err != nil {
		b.Fatal(err)
	}
}

// appendAtHead appends one event at the workspace's head, as the rules do.
func appendAtHead(ctx context.Context, tx store.Tx, workspaceID, id string) error {
	h, _, err := tx.Head(ctx, workspaceID)
	if err != nil {
		return err
	}
	ev := journal.Event{WorkspaceID: workspaceID, EpochID: h.EpochID, Sequence: h.Sequence + 1, ID: "event_" + id,
		Protocol: journal.ProtocolV2, Type: string(journal.KindTaskProgressed), EntityID: "task_1", Actor: "bench",
		OccurredAt: benchClock, PayloadJSON: []byte(`{"message":"` + id + `"}`), PrevHash: h.Hash}
	var hasher journal.Hasher
	if ev.Hash, err = hasher.Hash(&ev); err != nil {
		return err
	}
	return tx.Append(ctx, &ev)
}

// ruleShaped is one write shaped like a rule's (report_append): reads
// before the head (the workspace, the idempotency receipt), the append,
// then the receipt recorded. Its snapshot is taken long before Head.
func ruleShaped(ctx context.Context, tx store.Tx, workspaceID, id string) error {
	if _, _, err := tx.Workspace(ctx, workspaceID); err != nil {
		return err
	}
	scope := store.ReceiptScope{WorkspaceID: workspaceID, Actor: "bench", Key: "key_" + id}
	if _, found, err := tx.FindReceipt(ctx, scope); err != nil || found {
		return err
	}
	if err := appendAtHead(ctx, tx, workspaceID, id); err != nil {
		return err
	}
	return tx.InsertReceipt(ctx, scope, store.Receipt{Operation: "bench", RequestHash: id, Response: []byte(`{}`)}, benchClock)
}

// The append benchmarks interleave the engines: each runs b.N/rounds
// transactions in turn, rounds times, so that every engine's figure is
// taken under the same load of the shared machine. ns/op is meaningless
// (it covers every engine); the metrics are per engine:
// <engine>-appends/s, and for PostgreSQL <engine>-40001/commit, the
// attempts per commit that ended in a serialization failure.
const rounds = 10

// BenchmarkAppend is one writer, one event appended per write
// transaction (<engine>-ms/append is the latency of one append).
func BenchmarkAppend(b *testing.B) {
	runInterleaved(b, 1, 1, 1, appendAtHead)
}

// BenchmarkAppend16Writers is 16 goroutines appending, one event per
// write transaction (appends/s is the total throughput), all to one
// workspace or each to its own; 16-engines gives each goroutine its own
// engine, as 16 processes have.
func BenchmarkAppend16Writers(b *testing.B) {
	for _, spread := range []struct {
		name       string
		workspaces int
		engines    int
		write      func(ctx context.Context, tx store.Tx, workspaceID, id string) error
	}{
		{"one-workspace", 1, 1, appendAtHead},
		{"16-workspaces", 16, 1, appendAtHead},
		{"one-workspace-rule-shaped", 1, 1, ruleShaped},
		{"one-workspace-16-engines", 1, 16, appendAtHead},
	} {
		b.Run(spread.name, func(b *testing.B) {
			runInterleaved(b, 16, spread.engines, spread.workspaces, spread.write)
		})
	}
}

// runInterleaved opens every engine case with engines engines on one
// journal each, and runs writers goroutines appending with write,
// goroutine i to workspace i mod workspaces through engine i mod engines,
// the cases taking turns (rounds).
func runInterleaved(b *testing.B, writers, engines, workspaces int,
	write func(ctx context.Context, tx store.Tx, workspaceID, id string) error) {
	cases := enginesOf(b)
	opened := make([][]store.Engine, len(cases))
	for i, c := range cases {
		opened[i] = c.openN(b, engines)
		for _, e := range opened[i] {
			defer e.Close()
		}
		for w := 0; w < workspaces; w++ {
			benchWorkspace(b, opened[i][0], "ws_bench"+strconv.Itoa(w))
		}
		analyze(b, opened[i][0])
	}
	ctx := context.Background()
	elapsed := make([]time.Duration, len(cases))
	done := make([]int64, len(cases))
	var next atomic.Int64
	b.ResetTimer()
	for r := 0; r < rounds; r++ {
		for i := range cases {
			n := int64(b.N/rounds + 1)
			var left atomic.Int64
			left.Store(n)
			var wg sync.WaitGroup
			start := time.Now()
			for g := 0; g < writers; g++ {
				wg.Add(1)
				go func(g int) {
					defer wg.Done()
					ws := "ws_bench" + strconv.Itoa(g%workspaces)
					e := opened[i][g%engines]
					for left.Add(-1) >= 0 {
						id := strconv.FormatInt(next.Add(1), 10)
						if err := e.Write(ctx, func(tx store.Tx) error { return write(ctx, tx, ws, id) }); err != nil {
							b.Error(err)
							return
						}
					}
				}(g)
			}
			wg.Wait()
			elapsed[i] += time.Since(start)
			done[i] += n
		}
	}
	for i, c := range cases {
		b.ReportMetric(float64(done[i])/elapsed[i].Seconds(), c.name+"-appends/s")
		if writers == 1 {
			b.ReportMetric(elapsed[i].Seconds()*1000/float64(done[i]), c.name+"-ms/append")
		}
		reportRetries(b, c.name, opened[i]...)
	}
}

// BenchmarkVerify50000 verifies a 50,000-event chain from genesis.
func BenchmarkVerify50000(b *testing.B) {
	const events = 50000
	for _, c := range enginesOf(b) {
		if c.name == "postgres-firstcome" {
			continue // verifying reads no differently
		}
		b.Run(c.name, func(b *testing.B) {
			e := c.open(b)
			defer e.Close()
			benchWorkspace(b, e, "ws_bench")
			ctx := context.Background()
			// Filled 500 events per transaction: one transaction moving
			// the head 50,000 times would leave PostgreSQL a chain of
			// 50,000 versions of the workspace row to walk.
			for start := 0; start < events; start += 500 {
				if err := e.Write(ctx, func(tx store.Tx) error {
					for i := start; i < start+500; i++ {
						if err := appendAtHead(ctx, tx, "ws_bench", strconv.Itoa(i)); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ok, found, err := storetest.VerifyChain(ctx, e, "ws_bench")
				if err != nil || !ok || !found {
					b.Fatalf("verify: ok=%v found=%v err=%v", ok, found, err)
				}
			}
		})
	}
}

// BenchmarkAppendRoundTrips compares, on PostgreSQL, one append written
// as one statement (Append) with the same append as two statements
// (insert, then move the head), alternating every transaction so that
// both see the same load; ms/append-1stmt and ms/append-2stmt are their
// mean latencies.
func BenchmarkAppendRoundTrips(b *testing.B) {
	testServer(b)
	e, err := Open(context.Background(), freshDatabase(b))
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	benchWorkspace(b, e, "ws_bench")
	ctx := context.Background()
	twoStatements := func(tx store.Tx, id string) error {
		t := tx.(*Tx)
		h, _, err := t.Head(ctx, "ws_bench")
		if err != nil {
			return err
		}
		ev := journal.Event{WorkspaceID: "ws_bench", EpochID: h.EpochID, Sequence: h.Sequence + 1, ID: "event_" + id,
			Protocol: journal.ProtocolV2, Type: string(journal.KindTaskProgressed), EntityID: "task_1", Actor: "bench",
			OccurredAt: benchClock, PayloadJSON: []byte(`{"message":"` + id + `"}`), PrevHash: h.Hash}
		var hasher journal.Hasher
		if ev.Hash, err = hasher.Hash(&ev); err != nil {
			return err
		}
		if _, err := t.ExecContext(ctx, `INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id,
actor, occurred_at, payload_json, prev_hash, hash, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ev.WorkspaceID, ev.EpochID, ev.Sequence, ev.ID, ev.Protocol, ev.Type, ev.EntityID, ev.Actor, ev.OccurredAt,
			string(ev.PayloadJSON), ev.PrevHash, ev.Hash, ev.SessionID); err != nil {
			return err
		}
		_, err = t.ExecContext(ctx, "UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = ?",
			ev.Sequence, ev.Hash, ev.WorkspaceID)
		return err
	}
	var one, two time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := strconv.Itoa(i)
		start := time.Now()
		if i%2 == 0 {
			err = e.Write(ctx, func(tx store.Tx) error { return appendAtHead(ctx, tx, "ws_bench", id) })
			one += time.Since(start)
		} else {
			err = e.Write(ctx, func(tx store.Tx) error { return twoStatements(tx, id) })
			two += time.Since(start)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	half := float64(max(1, b.N/2))
	b.ReportMetric(one.Seconds()*1000/half, "ms/append-1stmt")
	b.ReportMetric(two.Seconds()*1000/half, "ms/append-2stmt")
}
