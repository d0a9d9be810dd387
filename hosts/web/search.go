package web

import "context"

// Searcher is the seam for full-text search over a journal. The search
// index (core/search, on its own branch) will satisfy it through a small
// adapter once merged: SearchQuery maps onto search.Query (WorkspaceID,
// Text, Kinds, Cursor, Order = recent) and each SearchHit onto a
// search.Hit. Until then Options.Search is nil and the box says so.
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
}
