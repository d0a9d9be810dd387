//go:build unix

package search_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
)

// Benchmarks run on a synthetic 100,000-event journal whose text follows
// a Zipf distribution over a 6,000-word vocabulary, with the event mix of
// a busy workspace: reports, progress notes, tasks, claims (no text),
// decisions and handoffs.
//
//	go test ./core/search -run '^$' -bench . -benchtime 1x    (full build: one build per run)
//	go test ./core/search -run '^$' -bench 'CatchUp|Query|ReportAppend'

const benchEvents = 100_000

var vocabulary = func() []string {
	syll := []string{"ka", "lo", "mi", "re", "tu", "sa", "ne", "po", "vi", "da", "gor", "lin", "tas", "mur", "fen", "bri", "qua", "zel"}
	words := make([]string, 0, 6000)
	r := rand.New(rand.NewPCG(1, 2))
	for len(words) < 6000 {
		n := 2 + r.IntN(3)
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		words = append(words, b.String())
	}
	return words
}()

// textGen writes Zipf-distributed sentences.
type textGen struct {
	r *rand.Rand
	z *rand.Zipf
}

func newTextGen(seed uint64) *textGen {
	r := rand.New(rand.NewPCG(seed, seed+1))
	return &textGen{r: r, z: rand.NewZipf(r, 1.1, 2, uint64(len(vocabulary)-1))}
}

func (g *textGen) sentence(min, max int) string {
	n := min + g.r.IntN(max-min+1)
	out := make([]string, n)
	for i := range out {
		out[i] = vocabulary[g.z.Uint64()]
	}
	return strings.Join(out, " ")
}

// payload returns the event type, entity and payload of the i-th event.
func (g *textGen) payload(i int) (string, string, map[string]any) {
	task := fmt.Sprintf("task-%d", i%500)
	switch k := i % 10; {
	case k < 4:
		return "report.posted", fmt.Sprintf("report_%d", i), map[string]any{"task_id": task, "to_session_id": nil, "kind": "observation",
			"body": g.sentence(15, 45), "evidence_refs": []any{}, "confidence": "medium", "confidence_basis": nil,
			"limits": g.sentence(3, 10), "relation": "informs", "target_report_id": nil, "authority_scope": nil, "authority_basis": nil}
	case k < 6:
		return "task.progressed", task, map[string]any{"message": g.sentence(8, 25), "version": 3}
	case k < 7:
		return "task.created", task, map[string]any{"title": g.sentence(3, 8), "description": g.sentence(10, 30),
			"dependencies": []any{}, "path_scopes": []any{"src/" + vocabulary[g.r.IntN(100)]}, "version": 1}
	case k < 8:
		return "task.claimed", task, map[string]any{"lease_id": fmt.Sprintf("lease_%d", i), "lease_expires_at": "2026-11-30T12:00:00.000Z",
			"previous_assignee": nil, "version": 2}
	case k < 9:
		return "decision.recorded", fmt.Sprintf("decision_%d", i), map[string]any{"decision": map[string]any{
			"id": fmt.Sprintf("decision_%d", i), "topic": g.sentence(2, 5), "decision": g.sentence(8, 20), "rationale": g.sentence(5, 15)}}
	default:
		return "handoff.offered", fmt.Sprintf("handoff_%d", i), map[string]any{"offer": map[string]any{
			"id": fmt.Sprintf("handoff_%d", i), "task_id": task, "summary": g.sentence(10, 25)}, "task_version": 4, "note": "fixed"}
	}
}

// appendRaw appends n synthetic events to the workspace's journal with
// valid hashes, in one transaction, as if another writer had.
func appendRaw(tb testing.TB, path, ws string, from, n int) {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_txlock=immediate")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		tb.Fatal(err)
	}
	var prev journal.Event
	if err := tx.QueryRow("SELECT epoch_id, event_head_sequence, event_head_hash FROM workspaces WHERE id = ?", ws).
		Scan(&prev.EpochID, &prev.Sequence, &prev.Hash); err != nil {
		tb.Fatal(err)
	}
	stmt, err := tx.Prepare(`INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor, occurred_at,
payload_json, prev_hash, hash, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`)
	if err != nil {
		tb.Fatal(err)
	}
	g := newTextGen(uint64(from) + 7)
	var h journal.Hasher
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for i := from; i < from+n; i++ {
		typ, entity, p := g.payload(i)
		body, err := canon.Marshal(p)
		if err != nil {
			tb.Fatal(err)
		}
		e := journal.Event{WorkspaceID: ws, EpochID: prev.EpochID, Sequence: prev.Sequence + 1, ID: fmt.Sprintf("event_bench_%d", i),
			Protocol: journal.ProtocolV2, Type: typ, EntityID: entity, Actor: fmt.Sprintf("agent-%d", i%7),
			OccurredAt: store.FormatTime(base.Add(time.Duration(i) * time.Second)), PayloadJSON: body, PrevHash: prev.Hash}
		if e.Hash, err = h.Hash(&e); err != nil {
			tb.Fatal(err)
		}
		if _, err := stmt.Exec(e.WorkspaceID, e.EpochID, e.Sequence, e.ID, e.Protocol, e.Type, e.EntityID, e.Actor, e.OccurredAt,
			string(e.PayloadJSON), e.PrevHash, e.Hash); err != nil {
			tb.Fatal(err)
		}
		prev = e
	}
	stmt.Close()
	if _, err := tx.Exec("UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = ?", prev.Sequence, prev.Hash, ws); err != nil {
		tb.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		tb.Fatal(err)
	}
}

var (
	benchOnce sync.Once
	benchBase string
	benchWS   string
)

// benchJournal returns a private copy of the 100,000-event database.
func benchJournal(b *testing.B) (string, string) {
	b.Helper()
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "collab-search-bench")
		if err != nil {
			b.Fatal(err)
		}
		root := filepath.Join(dir, "repo")
		os.Mkdir(root, 0o700)
		benchBase = filepath.Join(dir, "base.sqlite")
		st, err := backend.Open(context.Background(), backend.Options{Path: benchBase})
		if err != nil {
			b.Fatal(err)
		}
		opened, err := st.OpenWorkspace(context.Background(), store.OpenWorkspaceInput{RootPath: root, Actor: "bench", RepositoryKey: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		st.Close()
		benchWS = opened.Workspace.ID
		appendRaw(b, benchBase, benchWS, 0, benchEvents-1)
		db, _ := sql.Open("sqlite", "file:"+benchBase)
		db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
		db.Close()
	})
	dst := filepath.Join(b.TempDir(), "collab.sqlite")
	restore(b, copyOf(b, benchBase), dst)
	return dst, benchWS
}

func BenchmarkFullBuild100k(b *testing.B) {
	path, _ := benchJournal(b)
	st := openStore(b, path)
	ix := openIndex(b, st)
	cpu := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := ix.Rebuild(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op")
	reportSizes(b, path, ix.Path())
}

// cpuTime is the CPU time this process has used. On a machine shared by
// many builds, wall time mostly measures waiting for a core; CPU time is
// reported beside it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportSizes(b *testing.B, dbPath, sidecar string) {
	db, err1 := os.Stat(dbPath)
	sc, err2 := os.Stat(sidecar)
	if err1 != nil || err2 != nil {
		b.Fatal(err1, err2)
	}
	b.ReportMetric(float64(db.Size())/(1<<20), "db-MiB")
	b.ReportMetric(float64(sc.Size())/(1<<20), "sidecar-MiB")
	b.ReportMetric(float64(sc.Size())/float64(db.Size()), "sidecar/db")
}

func BenchmarkCatchUp1000(b *testing.B) {
	path, ws := benchJournal(b)
	st := openStore(b, path)
	ix := openIndex(b, st)
	if _, err := ix.CatchUp(context.Background(), ""); err != nil {
		b.Fatal(err)
	}
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		appendRaw(b, path, ws, benchEvents+i*1000, 1000)
		b.StartTimer()
		before := cpuTime()
		n, err := ix.CatchUp(context.Background(), ws)
		cpu += cpuTime() - before
		if err != nil || n != 1000 {
			b.Fatalf("caught up %d events: %v", n, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(cpu.Seconds()*1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkQuery times a two-word query returning 10 hits with snippets.
// "typical" pairs distinctive words (Zipf ranks 300 to 2,000, each in a few
// hundred events, as a person searches); "common" pairs two of the most
// frequent words, so that tens of thousands of events match and every one
// is ranked.
func BenchmarkQuery(b *testing.B) {
	path, ws := benchJournal(b)
	st := openStore(b, path)
	ix := openIndex(b, st)
	if _, err := ix.CatchUp(context.Background(), ""); err != nil {
		b.Fatal(err)
	}
	sets := map[string][]string{
		"typical": cooccurring(b, ix, ws, 300, 2000, 4),
		"common":  {vocabulary[40] + " " + vocabulary[90], vocabulary[25] + " " + vocabulary[300]},
	}
	for _, name := range []string{"typical", "common"} {
		queries := sets[name]
		b.Run(name, func(b *testing.B) {
			var durations []time.Duration
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				q := search.Query{WorkspaceID: ws, Text: queries[i%len(queries)], Limit: 10}
				start := time.Now()
				res, err := ix.Search(context.Background(), q)
				durations = append(durations, time.Since(start))
				if err != nil || len(res.Hits) == 0 {
					b.Fatalf("%q: %d hits, %v", q.Text, len(res.Hits), err)
				}
			}
			b.ReportMetric((cpuTime()-cpu).Seconds()*1000/float64(b.N), "cpu-ms/op")
			p50, p99 := percentiles(durations)
			b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
		})
	}
}

// cooccurring picks n pairs of words between the two Zipf ranks that
// appear together in at least ten events.
func cooccurring(b *testing.B, ix *search.Index, ws string, lo, hi, n int) []string {
	var out []string
	for i := lo; i < hi && len(out) < n; i += 37 {
		for j := i + 1; j < hi && len(out) < n; j += 101 {
			q := vocabulary[i] + " " + vocabulary[j]
			res, err := ix.Search(context.Background(), search.Query{WorkspaceID: ws, Text: q, Limit: 10})
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Hits) == 10 {
				out = append(out, q)
				break
			}
		}
	}
	if len(out) < n {
		b.Fatalf("only %d co-occurring pairs", len(out))
	}
	return out
}

func percentiles(d []time.Duration) (time.Duration, time.Duration) {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2], d[(len(d)*99)/100]
}

// BenchmarkReportAppend measures report_append's p50 with and without
// search in use, interleaved in one run: "in use" is a second index on the
// same database searching (and so catching up) every 10 ms while reports
// are appended. Indexing is lazy, so the write path itself does no
// search work; this shows it is not slowed by the sidecar either.
func BenchmarkReportAppend(b *testing.B) {
	path, ws := benchJournal(b)
	dir := filepath.Dir(path)
	root := filepath.Join(dir, "repo")
	os.Mkdir(root, 0o700)
	st := openStore(b, path)
	started, err := st.StartSession(context.Background(), store.StartSessionInput{RootPath: root, Actor: "bench", RepositoryKey: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	_ = ws
	cred := store.Credential{SessionID: started.Session.ID, Token: started.Token, Generation: started.Session.Generation}
	g := newTextGen(99)
	n := 0
	appendOne := func() time.Duration {
		n++
		start := time.Now()
		_, err := st.AppendReport(context.Background(), cred, store.AppendReportInput{IdempotencyKey: fmt.Sprintf("r%d", n),
			Kind: "observation", Body: g.sentence(15, 40)})
		if err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	searcher := openIndex(b, openStore(b, path))
	if _, err := searcher.CatchUp(context.Background(), ""); err != nil {
		b.Fatal(err)
	}
	var without, with []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for j := 0; j < 20; j++ {
			without = append(without, appendOne())
		}
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			tick := time.NewTicker(10 * time.Millisecond)
			defer tick.Stop()
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				case <-tick.C:
					searcher.Search(context.Background(), search.Query{Text: vocabulary[k%200] + " " + vocabulary[(k+7)%200]})
				}
			}
		}()
		for j := 0; j < 20; j++ {
			with = append(with, appendOne())
		}
		close(stop)
		<-done
	}
	b.StopTimer()
	p50Without, _ := percentiles(without)
	p50With, _ := percentiles(with)
	b.ReportMetric(float64(p50Without.Microseconds())/1000, "p50-ms-without")
	b.ReportMetric(float64(p50With.Microseconds())/1000, "p50-ms-with-search")
	b.ReportMetric(float64(p50With)/float64(p50Without), "with/without")
}
