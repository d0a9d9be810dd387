package main

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkRound3Teams is issue 41's goal 4: report_append from many HTTP
// clients at once, on PostgreSQL through four `serve` processes (each a
// machine in a network namespace of its own, reaching a durable server
// over TCP) with 16 clients each, and the same 64 clients on SQLite
// through one `serve`. One op is one acknowledged append; the metrics are
// the aggregate appends/s, the p99 of one append in ms, and how many
// acknowledged appends the journal lacks afterwards (lost, always 0).
//
//	go test -run '^$' -bench Round3Teams -benchtime 2000x ./cmd/agenttool-collab-mcp/
//
// The PostgreSQL case needs root, iproute2 and a PostgreSQL test server
// (.ci/postgres), and skips without them.
func BenchmarkRound3Teams(b *testing.B) {
	shapes := []struct {
		engine          string
		serves, clients int
	}{{"postgres", 4, 16}, {"sqlite", 1, 64}}
	for _, shape := range shapes {
		var fx *teamBench
		b.Run(fmt.Sprintf("engine=%s/serves=%d/clients=%d", shape.engine, shape.serves, shape.clients), func(rb *testing.B) {
			if fx == nil {
				// Go calls this function once per b.N it tries; the team
				// is built once, owned by the parent benchmark.
				owner := benchOwner{TB: b, run: rb}
				fx = newTeamBench(owner, shape.engine, shape.serves, shape.clients)
			}
			fx.run(rb)
		})
	}
}

// teamBench is a team with its clients bound, ready to append.
type teamBench struct {
	tm    *team
	ctx   context.Context
	ws    string
	calls []caller
	runs  int
}

func newTeamBench(t testing.TB, engine string, serves, clients int) *teamBench {
	t.Helper()
	var tm *team
	if engine == "postgres" {
		tm = startPostgresTeam(t, serves, clients)
	} else {
		tm = startSQLiteTeam(t, clients)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	fx := &teamBench{tm: tm, ctx: ctx, ws: tm.workspace(ctx), calls: tm.clients(ctx)}
	tm.bind(fx.calls, "bench")
	return fx
}

// run appends b.N reports, each client taking the next one until none is
// left, and reports the metrics.
func (fx *teamBench) run(b *testing.B) {
	fx.runs++
	l := newLoadLedger()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i, call := range fx.calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := next.Add(1); n <= int64(b.N); n = next.Add(1) {
				r, code := l.timed(call, "collab_report_append", map[string]any{"workspace_id": fx.ws,
					"idempotency_key": fmt.Sprintf("bench-%d-%d", fx.runs, n), "kind": "observation",
					"body": fmt.Sprintf("client %d, append %d", i, n)})
				if code == "" {
					l.ack("report.posted", str(r, "report.id"))
				} else if code != "transport" && code != "rpc" {
					l.mu.Lock()
					l.failures = append(l.failures, "collab_report_append: "+code)
					l.mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if len(l.failures) > 0 {
		b.Fatalf("%d appends failed, first: %s", len(l.failures), l.failures[0])
	}
	journalled := readJournal(b, fx.tm.db, fx.ws).byType["report.posted"]
	lost := 0
	for id := range l.acked["report.posted"] {
		if journalled[id] == 0 {
			lost++
		}
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "appends/s")
	b.ReportMetric(float64(percentile(l.latency["collab_report_append"], 99))/float64(time.Millisecond), "p99-ms")
	b.ReportMetric(float64(lost), "lost")
}

// percentile returns the p-th percentile of ds (nearest rank).
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*p/100]
}

// benchOwner lets a fixture outlive one call of a sub-benchmark's
// function: its cleanups and temporary directories belong to the parent
// benchmark (TB), so they run once every sub-benchmark is done, while
// failures, skips and logs go to the sub-benchmark (run), whose goroutine
// calls them.
type benchOwner struct {
	testing.TB
	run *testing.B
}

func (o benchOwner) Error(args ...any)                 { o.run.Helper(); o.run.Error(args...) }
func (o benchOwner) Errorf(format string, args ...any) { o.run.Helper(); o.run.Errorf(format, args...) }
func (o benchOwner) Fail()                             { o.run.Fail() }
func (o benchOwner) FailNow()                          { o.run.FailNow() }
func (o benchOwner) Failed() bool                      { return o.run.Failed() }
func (o benchOwner) Fatal(args ...any)                 { o.run.Helper(); o.run.Fatal(args...) }
func (o benchOwner) Fatalf(format string, args ...any) { o.run.Helper(); o.run.Fatalf(format, args...) }
func (o benchOwner) Helper()                           {}
func (o benchOwner) Log(args ...any)                   { o.run.Helper(); o.run.Log(args...) }
func (o benchOwner) Logf(format string, args ...any)   { o.run.Helper(); o.run.Logf(format, args...) }
func (o benchOwner) Skip(args ...any)                  { o.run.Helper(); o.run.Skip(args...) }
func (o benchOwner) SkipNow()                          { o.run.SkipNow() }
func (o benchOwner) Skipf(format string, args ...any)  { o.run.Helper(); o.run.Skipf(format, args...) }
func (o benchOwner) Skipped() bool                     { return o.run.Skipped() }
