package main

import (
	"database/sql"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// These benchmarks time whole tool calls through a real server process:
// request bytes written → response line read. Each reports the median
// ("p50-ms") besides the mean, because shared machines are noisy.

type benchEnv struct {
	s  *sandbox
	c  *mcptest.Client
	ws string
	// version is the session's cursor version after the last ack.
	version float64
	// cpu0 is the server's CPU time (µs) when the timed calls began.
	cpu0 int64
}

func newBenchEnv(b *testing.B) *benchEnv {
	return newBenchEnvOf(b, []string{os.Args[0]})
}

// newBenchEnvOf starts the server command argv (this binary, or the
// reference's) on a fresh sandbox with a session on its repository.
func newBenchEnvOf(b *testing.B, argv []string) *benchEnv {
	s := newSandbox(b)
	repo := s.repo("main", map[string]string{"src/a.go": "package a\n"})
	c, err := mcptest.Start(argv, s.env())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	r, err := c.Call("collab_session_start", map[string]any{"root_path": repo, "actor": "bench"})
	if err != nil || r.IsError {
		b.Fatalf("session start: %v %s", err, r.Raw)
	}
	return &benchEnv{s: s, c: c, ws: str(r.Structured, "workspace.id")}
}

func (e *benchEnv) must(b *testing.B, tool string, args map[string]any) map[string]any {
	r, err := e.c.Call(tool, args)
	if err != nil || r.IsError {
		b.Fatalf("%s: %v %s", tool, err, r.Raw)
	}
	return r.Structured
}

// timed runs op b.N times and reports the median latency.
func timed(b *testing.B, op func(i int)) {
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		op(i)
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	reportLatency(b, lat)
}

func reportLatency(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

func BenchmarkReportAppend(b *testing.B) {
	e := newBenchEnv(b)
	timed(b, func(i int) {
		e.must(b, "collab_report_append", map[string]any{"workspace_id": e.ws, "idempotency_key": fmt.Sprintf("r%d", i),
			"kind": "observation", "body": "The parser handles nested quotes; tokenizer tests pass.", "confidence": "high"})
	})
}

// BenchmarkNextAndAck times one poll plus the acknowledgement of the page
// it returned; a report is appended before each round, untimed.
func BenchmarkNextAndAck(b *testing.B) {
	e := newBenchEnv(b)
	lat := make([]time.Duration, 0, b.N)
	version := 0.0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e.must(b, "collab_report_append", map[string]any{"workspace_id": e.ws, "idempotency_key": fmt.Sprintf("r%d", i),
			"kind": "observation", "body": "progress"})
		b.StartTimer()
		start := time.Now()
		next := e.must(b, "collab_next", map[string]any{"workspace_id": e.ws, "event_limit": 50})
		acked := e.must(b, "collab_cursor_ack", map[string]any{"workspace_id": e.ws,
			"anchor": get(next, "events.next_anchor"), "expected_cursor_version": version})
		lat = append(lat, time.Since(start))
		version, _ = get(acked, "session.cursor_version").(float64)
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// BenchmarkNextByJournalLength polls the same page position in journals of
// 1,000 and 50,000 events: the page and its projections must not grow
// with the journal.
func BenchmarkNextByJournalLength(b *testing.B) {
	for _, n := range []int{1000, 50000} {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			e := newBenchEnv(b)
			fillJournal(b, e, n)
			timed(b, func(int) { e.must(b, "collab_next", map[string]any{"workspace_id": e.ws}) })
		})
	}
}

func BenchmarkCreateAndClaimWithCheckpoint(b *testing.B) {
	e := newBenchEnv(b)
	timed(b, func(i int) {
		id := fmt.Sprintf("t%d", i)
		e.must(b, "collab_task_create", map[string]any{"workspace_id": e.ws, "idempotency_key": "c" + id, "task_id": id,
			"title": "bench", "path_scopes": []any{"src/" + id}})
		e.must(b, "collab_task_claim", map[string]any{"workspace_id": e.ws, "idempotency_key": "k" + id, "task_id": id,
			"expected_version": 1})
	})
}

// BenchmarkSpawnToInitialize is what a host waits for before it can list
// tools: a server process started on an existing database until its
// initialize reply is read. The server is this test binary (the command's
// entry point, plus the testing package's own initialisation).
func BenchmarkSpawnToInitialize(b *testing.B) {
	s := newSandbox(b)
	warm, err := mcptest.Start([]string{os.Args[0]}, s.env()) // creates the database
	if err != nil {
		b.Fatal(err)
	}
	warm.Close()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		c, err := mcptest.Start([]string{os.Args[0]}, s.env())
		if err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		b.StopTimer()
		if code := c.Close(); code != 0 {
			b.Fatalf("server exited %d: %s", code, c.Stderr())
		}
		b.StartTimer()
	}
	b.StopTimer()
	reportLatency(b, lat)
}

// fillJournal appends protocol-0.2 events straight into the database (with
// correct hashes) until the journal holds n events; the server is idle.
func fillJournal(b *testing.B, e *benchEnv, n int) {
	b.Helper()
	db, err := sql.Open("sqlite", e.s.db)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	var epoch, prev string
	var seq int64
	if err := tx.QueryRow("SELECT epoch_id, event_head_sequence, event_head_hash FROM workspaces WHERE id = ?", e.ws).
		Scan(&epoch, &seq, &prev); err != nil {
		b.Fatal(err)
	}
	insert, err := tx.Prepare(`INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,
occurred_at, payload_json, prev_hash, hash, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`)
	if err != nil {
		b.Fatal(err)
	}
	var h journal.Hasher
	for seq < int64(n) {
		seq++
		ev := journal.Event{WorkspaceID: e.ws, EpochID: epoch, Sequence: seq, ID: fmt.Sprintf("event_fill_%d", seq),
			Protocol: journal.ProtocolV2, Type: "task.progressed", EntityID: "task_fill", Actor: "filler",
			OccurredAt: "2026-01-01T00:00:00.000Z", PayloadJSON: []byte(fmt.Sprintf(`{"message":"note %d","version":%d}`, seq, seq)),
			PrevHash: prev}
		ev.Hash, _ = h.Hash(&ev)
		if _, err := insert.Exec(ev.WorkspaceID, ev.EpochID, ev.Sequence, ev.ID, ev.Protocol, ev.Type, ev.EntityID, ev.Actor,
			ev.OccurredAt, string(ev.PayloadJSON), ev.PrevHash, ev.Hash); err != nil {
			b.Fatal(err)
		}
		prev = ev.Hash
	}
	if _, err := tx.Exec("UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = ?", seq, prev, e.ws); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}
