package web

import "context"

// Searcher answers the search box. IndexSearcher adapts the full-text
// index (core/search); tests use fakes. A nil Options.Search shows the box
// disabled.
type Searcher interface {
	Search(ctx context.Context, q SearchQuery) (SearchResult, error)
}

// SearchQuery is one search from the box.
type SearchQuery struct {
	WorkspaceID string
	Text        string
	Kind        string
	Cursor      string
}

// SearchResult is one page of hits.
type SearchResult struct {
	Hits       []SearchHit
	NextCursor string
}

// SearchHit is one matching event; the page links it to the timeline.
type SearchHit struct {
	Kind, EventType, Actor, OccurredAt, Title, Snippet string
	Sequence                                           int64
	// Parts is the snippet split into matched and unmatched runs, for
	// highlighting; empty means show Snippet as it is.
	Parts []SnippetPart
}
