package web

import (
	"context"
	"strings"

	"github.com/agenttool/collab/core/search"
)

// Snippet marks: private-use characters that journal text does not carry,
// so the page can turn them into <mark> after escaping the rest.
const (
	markOpen  = "\ue000"
	markClose = "\ue001"
)

// IndexSearcher answers the search box from the full-text index, newest
// first, with the same query rules as collab_search and the search command.
func IndexSearcher(ix *search.Index) Searcher { return indexSearcher{ix} }

type indexSearcher struct{ ix *search.Index }

func (s indexSearcher) Search(ctx context.Context, q SearchQuery) (SearchResult, error) {
	sq := search.Query{WorkspaceID: q.WorkspaceID, Text: q.Text, Cursor: q.Cursor, Order: search.ByRecency,
		MarkOpen: markOpen, MarkClose: markClose}
	if q.Kind != "" {
		sq.Kinds = []string{q.Kind}
	}
	res, err := s.ix.Search(ctx, sq)
	if err != nil {
		return SearchResult{}, err
	}
	out := SearchResult{NextCursor: res.NextCursor}
	for _, h := range res.Hits {
		out.Hits = append(out.Hits, SearchHit{Kind: h.Kind, EventType: h.EventType, Actor: h.Actor,
			OccurredAt: h.OccurredAt, Title: h.Title, Snippet: strings.NewReplacer(markOpen, "", markClose, "").Replace(h.Snippet),
			Parts: snippetParts(h.Snippet), Sequence: h.Sequence})
	}
	return out, nil
}

// SnippetPart is a run of a snippet's text, matched or not.
type SnippetPart struct {
	Text  string
	Match bool
}

// snippetParts splits a marked snippet into runs.
func snippetParts(s string) []SnippetPart {
	var parts []SnippetPart
	for s != "" {
		i := strings.Index(s, markOpen)
		if i < 0 {
			return append(parts, SnippetPart{Text: s})
		}
		if i > 0 {
			parts = append(parts, SnippetPart{Text: s[:i]})
		}
		s = s[i+len(markOpen):]
		j := strings.Index(s, markClose)
		if j < 0 {
			return append(parts, SnippetPart{Text: s, Match: true})
		}
		parts = append(parts, SnippetPart{Text: s[:j], Match: true})
		s = s[j+len(markClose):]
	}
	return parts
}
