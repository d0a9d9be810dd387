package main

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/historygen"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// historySearchQuery is in every generated report's body, so relevance
// ranks every report: the engine's floor, not a flat cost (see
// core/search BenchmarkSearchHistory for a distinctive query).
const historySearchQuery = "retry path"

// historySearchOps are BenchmarkRound3History's search rows:
//   - search: one collab_search at the head by relevance, the sidecar index
//     built by an earlier process (what a user has after their first
//     search); the first timed call is the server's first search;
//   - search-recent: the same by recency, which reads one page;
//   - search-first: a fresh server's first search with the sidecar on disk,
//     by recency, so that what it times is opening the index and indexing
//     the session's own new events (by relevance a first call also pays
//     the ranking of search with a cold page cache);
//   - search-build: a fresh server's first search with no sidecar: the
//     one-time build, O(history) by nature.
var historySearchOps = []string{"search", "search-recent", "search-first", "search-build"}

// fixtureSidecar builds, once per fixture, the search index a server
// would have written beside the fixture's database.
type fixtureSidecar struct {
	dir  string
	once sync.Once
	path string
	err  error
}

// build indexes a private copy of f's database and returns the sidecar.
func (s *fixtureSidecar) build(b *testing.B, f historygen.Fixture) string {
	s.once.Do(func() {
		db := filepath.Join(s.dir, "collab.sqlite")
		copyFile(b, f.DB, db)
		ctx := context.Background()
		st, err := backend.Open(ctx, backend.Options{Path: db})
		if err != nil {
			s.err = err
			return
		}
		defer st.Close()
		ix, err := search.Open(ctx, st)
		if err != nil {
			s.err = err
			return
		}
		defer ix.Close()
		if _, err := ix.CatchUp(ctx, ""); err != nil {
			s.err = err
			return
		}
		s.path = ix.Path()
	})
	if s.err != nil {
		b.Fatalf("build the fixture's search index: %v", s.err)
	}
	return s.path
}

func benchHistorySearch(b *testing.B, h *historyEnv, op string, sc *fixtureSidecar) {
	sidecar := search.SidecarPath(h.s.db)
	if op != "search-build" {
		copyFile(b, sc.build(b, h.f), sidecar)
	}
	args := map[string]any{"workspace_id": h.f.WorkspaceID, "query": historySearchQuery}
	if op == "search-recent" || op == "search-first" {
		args["order"] = search.ByRecency
	}
	switch op {
	case "search", "search-recent":
		benchSearchCalls(b, h, args)
	default:
		benchFirstSearch(b, h, args, op == "search-build")
	}
}

// benchSearchCalls times collab_search calls of one server at the head,
// with the server's CPU per call.
func benchSearchCalls(b *testing.B, h *historyEnv, args map[string]any) {
	c := h.server(b)
	cpu := processCPU(b, c.Pid())
	refused := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if searchRefusedAtDeadline(b, c, args) {
			refused++
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b, c.Pid())-cpu)/float64(b.N), "cpu-us/op")
	b.ReportMetric(float64(refused), "refused")
	b.ReportMetric(vmHWM(c.Pid()), "rss-MB")
}

// searchRefusedAtDeadline makes one collab_search call and says whether
// it was refused because it ran out of its deadline: what a search by
// relevance for words in every report meets once there are enough
// matches to rank (each is scored before the limit applies). Any other
// refusal fails the benchmark.
func searchRefusedAtDeadline(b *testing.B, c *mcptest.Client, args map[string]any) bool {
	b.Helper()
	r, err := c.Call("collab_search", args)
	if err != nil {
		b.Fatalf("collab_search: %v", err)
	}
	if !r.IsError {
		return false
	}
	if r.Structured["error"] == "query_too_complex" && r.Structured["limit"] == "deadline" {
		return true
	}
	b.Fatalf("collab_search: %s", r.Raw)
	return false
}

// benchFirstSearch times the first collab_search of fresh servers (each
// started and given a session untimed); without a sidecar each builds
// the index from the whole journal.
func benchFirstSearch(b *testing.B, h *historyEnv, args map[string]any, build bool) {
	sidecar := search.SidecarPath(h.s.db)
	benchFirstCall(b, h, "collab_search", args, func() {
		if !build {
			return
		}
		if err := os.Remove(sidecar); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
	})
}

// historyServer is the server command the history benchmark times: this
// test binary, or COLLAB_HISTORY_SERVER (another build of the program, to
// compare two builds in one sitting on the same fixtures).
func historyServer() []string {
	if bin := os.Getenv("COLLAB_HISTORY_SERVER"); bin != "" {
		return []string{bin}
	}
	return []string{os.Args[0]}
}
