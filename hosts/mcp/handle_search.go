package mcp

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/search"
)

// SearchResult is collab_search's answer.
type SearchResult struct {
	WorkspaceID   string       `json:"workspace_id"`
	Query         string       `json:"query"`
	InterpretedAs string       `json:"interpreted_as"`
	Hits          []search.Hit `json:"hits"`
	NextCursor    *string      `json:"next_cursor"`
	// Withheld counts the hits an open independence claim of the caller
	// kept out of this page (docs/independence.md); absent when none.
	Withheld int `json:"withheld,omitempty"`
}

// handleSearch searches one workspace in either mode. It catches the
// sidecar index up first and never writes the database or moves a cursor.
func handleSearch(ctx context.Context, p *Process, a Args) (any, error) {
	id := a.String("workspace_id")
	if _, err := p.store.Workspace(ctx, id); err != nil {
		return nil, err
	}
	q := search.Query{WorkspaceID: id, Text: a.String("query"), Kinds: a.Strings("kinds"), Actor: a.String("actor"),
		SessionID: a.String("session_id"), TaskID: a.String("task_id"), Order: a.String("order"),
		Limit: int(a.Int("limit")), Cursor: a.String("cursor")}
	var err error
	if q.Since, err = search.ParseBound(a.String("since"), false); err != nil {
		return nil, err
	}
	if q.Until, err = search.ParseBound(a.String("until"), true); err != nil {
		return nil, err
	}
	ix, err := p.searchIndex(ctx)
	if err != nil {
		return nil, err
	}
	res, err := ix.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	out := SearchResult{WorkspaceID: id, Query: q.Text, InterpretedAs: res.Interpreted, Hits: res.Hits}
	if out.Hits, out.Withheld, err = p.withholdHits(ctx, out.Hits); err != nil {
		return nil, err
	}
	for i := range out.Hits {
		out.Hits[i].Snippet, out.Hits[i].Title = p.scrub(out.Hits[i].Snippet), p.scrub(out.Hits[i].Title)
	}
	if res.NextCursor != "" {
		out.NextCursor = &res.NextCursor
	}
	return out, nil
}

// searchIndex opens the sidecar index on first use, so a process that
// never searches never creates one.
func (p *Process) searchIndex(ctx context.Context) (*search.Index, error) {
	if p.index != nil {
		return p.index, nil
	}
	open := p.openIndex
	if open == nil {
		open = func(ctx context.Context) (*search.Index, error) { return search.Open(ctx, p.store) }
	}
	ix, err := open(ctx)
	if refusal, ok := collaberr.As(err); ok {
		// An unsafe sidecar path says so, and what to do about it.
		return nil, refusal
	}
	if err != nil {
		return nil, collaberr.New(collaberr.SearchIndexUnavailable, "The search index beside the database could not be opened; check that its directory is writable, or run agenttool-collab-mcp search --rebuild")
	}
	p.index = ix
	return ix, nil
}
