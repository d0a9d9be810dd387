package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/historygen"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// historyOps are the calls BenchmarkRound3History times, each one whole
// call or process through the binary.
var historyOps = append([]string{"first-open", "spawn", "next", "next-first", "status"},
	append(historySearchOps, "person-status", "tasks", "verify", "journal-verify")...)

// referenceHistoryOps are the ops the reference 0.4.0 can run too (it has
// no search and no people's commands), timed with impl=reference when
// COLLAB_REFERENCE_CMD is set.
var referenceHistoryOps = map[string]bool{"spawn": true, "next": true, "next-first": true, "status": true}

// BenchmarkRound3History is issue 41's "flat in history" table: each op on
// a generated journal (core/historygen) of 1,000 and of 1,000,000 events,
// reporting ns/op and the RSS of the process that served it (rss-MB).
// With COLLAB_REFERENCE_CMD set, the ops of referenceHistoryOps also run
// through the reference's server (impl=reference) on the same copies.
// The million-event case runs only when asked: COLLAB_HISTORY_1M=1, or a
// -bench pattern naming events=1000000. COLLAB_HISTORY_DIR keeps the
// generated fixtures (default os.TempDir()); COLLAB_HISTORY_EVENTS=N adds
// an events=N case; AGENTOOL_COLLAB_PPROF profiles the timed processes.
func BenchmarkRound3History(b *testing.B) {
	sizes := []int64{1000, 1000000}
	if extra, err := strconv.ParseInt(os.Getenv("COLLAB_HISTORY_EVENTS"), 10, 64); err == nil && extra > 0 {
		sizes = append(sizes, extra) // a size between, for the slope
	}
	for _, n := range sizes {
		b.Run(fmt.Sprintf("events=%d", n), func(b *testing.B) {
			if n == 1000000 && !bigHistoryAsked() {
				b.Skip("set COLLAB_HISTORY_1M=1 or -bench 'Round3History/events=1000000' to run the million-event case")
			}
			f, err := historygen.Cached(context.Background(), os.Getenv("COLLAB_HISTORY_DIR"), n)
			if err != nil {
				b.Fatal(err)
			}
			sc := &fixtureSidecar{dir: b.TempDir()}
			for _, op := range historyOps {
				b.Run("op="+op, func(b *testing.B) { benchHistoryOp(b, f, op, sc, historyServer()) })
				if ref := referenceCommand(); len(ref) > 0 && referenceHistoryOps[op] {
					b.Run("op="+op+"/impl=reference", func(b *testing.B) { benchHistoryOp(b, f, op, sc, ref) })
				}
			}
		})
	}
}

func bigHistoryAsked() bool {
	if os.Getenv("COLLAB_HISTORY_1M") == "1" {
		return true
	}
	fl := flag.Lookup("test.bench")
	return fl != nil && strings.Contains(fl.Value.String(), "1000000")
}

// historyEnv is one op's sandbox: a private copy of the fixture's
// database (ops write sessions into it) and the server environment.
type historyEnv struct {
	f   historygen.Fixture
	s   *sandbox
	env []string
	// argv is the server command timed: historyServer() or the reference's.
	argv []string
}

func newHistoryEnv(b *testing.B, f historygen.Fixture, argv []string) *historyEnv {
	s := newSandbox(b)
	if err := os.MkdirAll(filepath.Dir(s.db), 0o700); err != nil {
		b.Fatal(err)
	}
	copyFile(b, f.DB, s.db)
	env := s.env()
	if prefix := os.Getenv(place.EnvPprof); prefix != "" { // profile the servers and commands timed
		env = append(env, place.EnvPprof+"="+prefix)
	}
	return &historyEnv{f: f, s: s, env: env, argv: argv}
}

// openOnce starts and stops one server on the copy, untimed: the file is
// then as every file servers have been opening is, with the heads and
// checks an open records (a generated fixture was only ever written).
// The first-open row times this open itself.
func (h *historyEnv) openOnce(b *testing.B) {
	c, err := mcptest.Start([]string{os.Args[0]}, h.env)
	if err != nil {
		b.Fatal(err)
	}
	if code := c.Close(); code != 0 {
		b.Fatalf("server exited %d: %s", code, c.Stderr())
	}
}

// benchFirstOpen times the first server start on a copy of the fixture
// that no server has opened: it verifies every journal and checks every
// foreign key from the first row, once per file (a new copy each time,
// made untimed).
func benchFirstOpen(b *testing.B, f historygen.Fixture) {
	var rss float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		h := newHistoryEnv(b, f, historyServer())
		b.StartTimer()
		c, err := mcptest.Start(h.argv, h.env)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		rss = max(rss, vmHWM(c.Pid()))
		if code := c.Close(); code != 0 {
			b.Fatalf("server exited %d: %s", code, c.Stderr())
		}
		b.StartTimer()
	}
	b.ReportMetric(rss, "rss-MB")
}

// server starts a server with a session at the fixture's root whose
// cursor is acknowledged at the journal head.
func (h *historyEnv) server(b *testing.B) *mcptest.Client {
	c, err := mcptest.Start(h.argv, h.env)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	mustCall(b, c, "collab_session_start", map[string]any{"root_path": h.f.Root, "actor": "bench"})
	anchor := map[string]any{"epoch_id": h.f.Head.EpochID, "sequence": h.f.Head.Sequence, "hash": h.f.Head.Hash}
	mustCall(b, c, "collab_cursor_ack", map[string]any{"workspace_id": h.f.WorkspaceID, "anchor": anchor,
		"expected_cursor_version": 0})
	for i := 0; i < 5; i++ { // the session's own events after the fixture's head
		next := mustCall(b, c, "collab_next", map[string]any{"workspace_id": h.f.WorkspaceID, "event_limit": 50})
		mustCall(b, c, "collab_cursor_ack", map[string]any{"workspace_id": h.f.WorkspaceID,
			"anchor": get(next, "events.next_anchor"), "expected_cursor_version": get(next, "session.cursor_version")})
		if evs, _ := get(next, "events.events").([]any); len(evs) == 0 {
			break
		}
	}
	return c
}

func mustCall(b *testing.B, c *mcptest.Client, tool string, args map[string]any) map[string]any {
	b.Helper()
	r, err := c.Call(tool, args)
	if err != nil || r.IsError {
		b.Fatalf("%s: %v %s", tool, err, r.Raw)
	}
	return r.Structured
}

// vmHWM is a live process's peak RSS in MB.
func vmHWM(pid int) float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
			return kb / 1024
		}
	}
	return 0
}

// benchHistoryOp times op with the server command argv on a private copy
// of f that this implementation's server has opened once (untimed).
func benchHistoryOp(b *testing.B, f historygen.Fixture, op string, sc *fixtureSidecar, argv []string) {
	if op == "first-open" {
		benchFirstOpen(b, f)
		return
	}
	h := newHistoryEnv(b, f, argv)
	h.openOnce(b)
	switch op {
	case "spawn":
		benchSpawn(b, h)
	case "search", "search-recent", "search-first", "search-build":
		benchHistorySearch(b, h, op, sc)
	case "next", "status", "journal-verify":
		benchTool(b, h, op)
	case "next-first":
		benchFirstNext(b, h)
	default:
		benchPerson(b, h, op)
	}
}

// benchSpawn times a server process from start to its initialize reply.
func benchSpawn(b *testing.B, h *historyEnv) {
	var rss float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := mcptest.Start(h.argv, h.env)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		rss = max(rss, vmHWM(c.Pid()))
		if code := c.Close(); code != 0 {
			b.Fatalf("server exited %d: %s", code, c.Stderr())
		}
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(rss, "rss-MB")
}

// benchTool times one tool call of a server whose session sits at the
// head: collab_next (nothing new), collab_workspace_status, or
// collab_journal_verify, the full audit of the chain, which also reports
// the server's CPU per event (collab_search's rows are in
// history_search_bench_test.go).
func benchTool(b *testing.B, h *historyEnv, op string) {
	c := h.server(b)
	ws := h.f.WorkspaceID
	call := map[string]func() (string, map[string]any){
		"next": func() (string, map[string]any) {
			return "collab_next", map[string]any{"workspace_id": ws, "event_limit": 50}
		},
		"status":         func() (string, map[string]any) { return "collab_workspace_status", map[string]any{"workspace_id": ws} },
		"journal-verify": func() (string, map[string]any) { return "collab_journal_verify", map[string]any{"workspace_id": ws} },
	}[op]
	tool, args := call()
	cpu := processCPU(b, c.Pid())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := mustCall(b, c, tool, args); op == "journal-verify" && got["chain_valid"] != true {
			b.Fatalf("collab_journal_verify of the fixture: %v", got)
		}
	}
	b.StopTimer()
	b.ReportMetric(vmHWM(c.Pid()), "rss-MB")
	// The server's own CPU per call, which the shared machine's load
	// skews far less than the wall time (10 ms ticks: use -benchtime ≥ 100x).
	perCall := float64(processCPU(b, c.Pid())-cpu) / float64(b.N)
	b.ReportMetric(perCall, "cpu-us/op")
	if op == "journal-verify" {
		b.ReportMetric(perCall*1000/float64(h.f.Events), "cpu-ns/event")
	}
}

// benchPerson times one people's command as its own process in the
// workspace's directory: collab status, collab tasks, collab verify. Its
// rss-MB is the peak the command's process records of itself
// (recordOwnPeak), not the rusage its parent reads.
func benchPerson(b *testing.B, h *historyEnv, op string) {
	args := map[string][]string{"person-status": {"status"}, "tasks": {"tasks"}, "verify": {"verify"}}[op]
	var rss, cpu float64
	peak := filepath.Join(b.TempDir(), "peak")
	env := append(append([]string{}, h.env...), peakFileEnv+"="+peak)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Dir, cmd.Env = h.f.Root, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%v: %v\n%s", args, err, out)
		}
		b.StopTimer()
		rss = max(rss, childPeakRSSMB(b, peak))
		b.StartTimer()
		cpu += (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	}
	b.StopTimer()
	b.ReportMetric(rss, "rss-MB")
	b.ReportMetric(cpu*1e6/float64(b.N), "cpu-us/op")
}
