package web_test

import (
	"context"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/hosts/web"
)

// fakeSearch answers every query with one hostile hit and a cursor.
type fakeSearch struct{ got web.SearchQuery }

func (f *fakeSearch) Search(_ context.Context, q web.SearchQuery) (web.SearchResult, error) {
	f.got = q
	return web.SearchResult{Hits: []web.SearchHit{{Kind: "report", EventType: "report.posted", Actor: "bob",
		Sequence: 7, Snippet: `<script>alert(1)</script> **token** bucket`}}, NextCursor: "c2"}, nil
}

func TestSearchSeamPassesTheQueryAndEscapesHits(t *testing.T) {
	path, ws := scaleDatabase(t, 1, 10)
	f := &fakeSearch{}
	ts := serve(t, web.Options{Store: readOnly(t, path), Search: f})
	_, board := get(t, ts.Client(), ts.URL+"/w/"+ws+"/")
	if strings.Contains(board, `name="q" type="search" placeholder="Search (unavailable)" disabled`) {
		t.Fatal("the search box is disabled although a searcher is configured")
	}
	_, page := get(t, ts.Client(), ts.URL+"/w/"+ws+"/search?q=token+bucket&cursor=c1")
	if f.got.WorkspaceID != ws || f.got.Text != "token bucket" || f.got.Cursor != "c1" {
		t.Fatalf("query passed as %+v", f.got)
	}
	if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Fatal("a hit's snippet was not escaped")
	}
	if !strings.Contains(page, "timeline?before=8#e-7") || !strings.Contains(page, "cursor=c2") {
		t.Fatalf("hit or next-page link missing:\n%s", page)
	}
}

func TestSearchBoxIsOffWithoutASearcher(t *testing.T) {
	path, ws := scaleDatabase(t, 1, 10)
	ts := serve(t, web.Options{Store: readOnly(t, path)})
	_, page := get(t, ts.Client(), ts.URL+"/w/"+ws+"/search?q=x")
	if !strings.Contains(page, "search is unavailable") || !strings.Contains(page, "disabled") {
		t.Fatalf("search page without a searcher:\n%s", page)
	}
}

// TestSearchBoxFindsJournalTextThroughTheIndex: with the real index, a
// task title written to the journal is found and its matched words are
// highlighted, escaped like any journal text.
func TestSearchBoxFindsJournalTextThroughTheIndex(t *testing.T) {
	path, ws := scaleDatabase(t, 1, 10)
	st := readOnly(t, path)
	ix, err := search.Open(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	ts := serve(t, web.Options{Store: st, Search: web.IndexSearcher(ix)})
	_, page := get(t, ts.Client(), ts.URL+"/w/"+ws+"/search?q=realistic")
	if !strings.Contains(page, "<mark>realistic</mark>") || !strings.Contains(page, "task.created") {
		t.Fatalf("the search page should list task.created hits with the word marked:\n%s", page)
	}
	if strings.ContainsRune(page, '\ue000') || strings.ContainsRune(page, '\ue001') {
		t.Fatal("snippet markers leaked into the page")
	}
}
