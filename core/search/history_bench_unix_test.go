//go:build unix

package search_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
)

// Journal sizes BenchmarkSearchHistory compares: the larger journal holds
// the smaller one's events and 19,000 more.
const (
	historySmall = 1_000
	historyLarge = 20_000
)

// BenchmarkSearchHistory guards "flat in history" for one search call at
// the journal head (index caught up, nothing new): each iteration runs the
// same query once on a 1,000-event and once on a 20,000-event journal and
// reports both (ms-small, ms-large) and their ratio.
//
//	go test ./core/search -run '^$' -bench SearchHistory -benchtime 20x
//
// "distinctive" is two rare words seen together in the first 1,000
// events; "recent" is two of the most frequent words by recency, which
// reads one page of the index (recent.go); "common" is the same words by
// relevance, where FTS5's bm25 scores every match, so that its ratio
// follows the number of matches (the engine's floor, not flat).
func BenchmarkSearchHistory(b *testing.B) {
	small, large := historyIndexes(b)
	common := vocabulary[0] + " " + vocabulary[1] // in most events
	queries := []struct{ name, text, order string }{
		{"distinctive", distinctivePair(b, small), search.ByRelevance},
		{"recent", common, search.ByRecency},
		{"common", common, search.ByRelevance},
	}
	for _, q := range queries {
		b.Run("query="+q.name, func(b *testing.B) {
			var tSmall, tLarge time.Duration
			for i := 0; i < b.N; i++ {
				tSmall += timedSearch(b, small, q.text, q.order)
				tLarge += timedSearch(b, large, q.text, q.order)
			}
			b.ReportMetric(float64(tSmall.Microseconds())/1000/float64(b.N), "ms-small")
			b.ReportMetric(float64(tLarge.Microseconds())/1000/float64(b.N), "ms-large")
			b.ReportMetric(float64(tLarge)/float64(tSmall), "ratio")
		})
	}
}

// historyIndex is one benchmark journal with its index caught up.
type historyIndex struct {
	ix *search.Index
	ws string
}

func historyIndexes(b *testing.B) (historyIndex, historyIndex) {
	dir := b.TempDir()
	root := filepath.Join(dir, "repo")
	if err := os.Mkdir(root, 0o700); err != nil {
		b.Fatal(err)
	}
	base := filepath.Join(dir, "base.sqlite")
	st, err := backend.Open(context.Background(), backend.Options{Path: base})
	if err != nil {
		b.Fatal(err)
	}
	opened, err := st.OpenWorkspace(context.Background(), store.OpenWorkspaceInput{RootPath: root, Actor: "bench", RepositoryKey: "bench"})
	st.Close()
	if err != nil {
		b.Fatal(err)
	}
	ws := opened.Workspace.ID
	appendRaw(b, base, ws, 0, historySmall-1)
	smallPath := filepath.Join(dir, "small", "collab.sqlite")
	largePath := filepath.Join(dir, "large", "collab.sqlite")
	for _, p := range []string{smallPath, largePath} {
		if err := os.Mkdir(filepath.Dir(p), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	snapshot(b, base, smallPath)
	appendRaw(b, base, ws, historySmall-1, historyLarge-historySmall)
	snapshot(b, base, largePath)
	open := func(path string) historyIndex {
		ix := openIndex(b, openStore(b, path))
		if _, err := ix.CatchUp(context.Background(), ""); err != nil {
			b.Fatal(err)
		}
		return historyIndex{ix: ix, ws: ws}
	}
	return open(smallPath), open(largePath)
}

// snapshot copies the database at src, its WAL folded in, to dst.
func snapshot(b *testing.B, src, dst string) {
	st, err := backend.Open(context.Background(), backend.Options{Path: src})
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	restore(b, copyOf(b, src), dst)
}

// distinctivePair is two words of Zipf ranks 1,500 to 3,000 that occur
// together in the small journal.
func distinctivePair(b *testing.B, h historyIndex) string {
	for i := 1500; i < 3000; i += 7 {
		for j := i + 1; j < 3000; j += 13 {
			q := vocabulary[i] + " " + vocabulary[j]
			res, err := h.ix.Search(context.Background(), search.Query{WorkspaceID: h.ws, Text: q})
			if err != nil {
				b.Fatal(err)
			}
			if len(res.Hits) > 0 && res.Interpreted == q {
				return q
			}
		}
	}
	b.Fatal("no two distinctive words occur together")
	return ""
}

func timedSearch(b *testing.B, h historyIndex, text, order string) time.Duration {
	start := time.Now()
	res, err := h.ix.Search(context.Background(), search.Query{WorkspaceID: h.ws, Text: text, Order: order})
	if err != nil || len(res.Hits) == 0 {
		b.Fatalf("%q: %d hits, %v", text, len(res.Hits), err)
	}
	return time.Since(start)
}
