package search

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"unicode"

	"github.com/agenttool/collab/core/collaberr"
)

// DefaultLimit and MaxLimit bound a page of hits.
const (
	DefaultLimit = 10
	MaxLimit     = 50
)

// Orders a search can return hits in.
const (
	// ByRelevance puts the best bm25 match first. Pages are exact while the
	// index does not change between them; new events change every score.
	ByRelevance = "relevance"
	// ByRecency puts the latest indexed event first. Pages are exact even
	// while the journal grows.
	ByRecency = "recent"
)

// Query is one search request.
type Query struct {
	// WorkspaceID limits the search to one workspace; empty searches all.
	WorkspaceID string
	// Text is FTS5 query syntax or plain words; see Interpret.
	Text string
	// Kinds keeps only hits of these kinds (any, when empty).
	Kinds []string
	// Actor, SessionID and TaskID keep only hits with exactly this value.
	Actor, SessionID, TaskID string
	// Since and Until bound the hits, inclusive, by journal sequence or
	// time; see ParseBound.
	Since, Until Bound
	// Order is ByRelevance (the default) or ByRecency.
	Order string
	// Limit is the page size: DefaultLimit when 0, at most MaxLimit.
	Limit int
	// Cursor continues a previous search with the same query and filters.
	Cursor string
	// Mark surrounds each matched term in snippets ("**" when empty).
	MarkOpen, MarkClose string
}

// Hit is one matching event: what it is, where to fetch it, and why it
// matched.
type Hit struct {
	Kind        string  `json:"kind"`
	EventType   string  `json:"event_type"`
	WorkspaceID string  `json:"workspace_id"`
	Sequence    int64   `json:"sequence"`
	ID          string  `json:"id"`
	TaskID      *string `json:"task_id"`
	Actor       string  `json:"actor"`
	SessionID   *string `json:"session_id"`
	OccurredAt  string  `json:"occurred_at"`
	Title       string  `json:"title,omitempty"`
	Snippet     string  `json:"snippet"`
	Rank        float64 `json:"rank"`
}

// Result is one page of hits.
type Result struct {
	Hits []Hit `json:"hits"`
	// Interpreted is the FTS5 expression that ran: the query itself, or
	// its words quoted one by one when the query was not valid FTS5.
	Interpreted string `json:"interpreted_as"`
	// NextCursor continues the search; empty on the last page.
	NextCursor string `json:"next_cursor,omitempty"`
}

// Search catches the index up with the journal and returns one page of
// hits. It only reads the main database. A query over the index's Limits
// is refused at once, and matching that runs past its Deadline is stopped
// inside SQLite and refused; both with query_too_complex. When ctx ends,
// SQLite is interrupted and ctx's error returned.
func (ix *Index) Search(ctx context.Context, q Query) (Result, error) {
	if err := normalise(&q, ix.opts.Limits); err != nil {
		return Result{}, err
	}
	var res Result
	err := ix.withRepair(ctx, func(db *sql.DB) error {
		if _, err := ix.catchUp(ctx, db, q.WorkspaceID); err != nil {
			return err
		}
		var err error
		res, err = ix.pageWithin(ctx, db, q)
		return err
	})
	return res, err
}

// pageWithin is page under the index's deadline.
func (ix *Index) pageWithin(ctx context.Context, db *sql.DB, q Query) (Result, error) {
	bounded, cancel := context.WithTimeout(ctx, ix.opts.Deadline)
	defer cancel()
	res, err := ix.page(bounded, db, q)
	if err == nil {
		return res, nil
	}
	if ctx.Err() != nil {
		return Result{}, fmt.Errorf("search: %w", ctx.Err())
	}
	if bounded.Err() != nil {
		return Result{}, collaberr.New(collaberr.QueryTooComplex,
			fmt.Sprintf("The search was stopped after %s without an answer; search for fewer or more distinctive words, fewer prefix terms or a narrower NEAR group", ix.opts.Deadline)).
			With("limit", "deadline").With("maximum", ix.opts.Deadline.String())
	}
	return Result{}, err
}

func normalise(q *Query, limits Limits) error {
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return collaberr.New(collaberr.InvalidLimit, fmt.Sprintf("limit must be 1 to %d", MaxLimit)).With("limit", q.Limit)
	}
	if q.Order == "" {
		q.Order = ByRelevance
	}
	if q.Order != ByRelevance && q.Order != ByRecency {
		return collaberr.New(collaberr.InvalidOrder, "order must be relevance or recent").With("order", q.Order)
	}
	for _, k := range q.Kinds {
		if !knownKind(k) {
			return collaberr.New(collaberr.InvalidKind, "Unknown hit kind; use one of "+strings.Join(Kinds, ", ")).With("kind", k)
		}
	}
	if q.MarkOpen == "" && q.MarkClose == "" {
		q.MarkOpen, q.MarkClose = "**", "**"
	}
	if err := limits.check(q.Text); err != nil {
		return err
	}
	if words(q.Text, " ") == "" {
		return collaberr.New(collaberr.InvalidQuery, "The query has no word to search for")
	}
	return nil
}

func knownKind(k string) bool {
	for _, known := range Kinds {
		if k == known {
			return true
		}
	}
	return false
}

// page runs the query against the index as it is now.
func (ix *Index) page(ctx context.Context, db *sql.DB, q Query) (Result, error) {
	var generation string
	if err := db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key = 'generation'").Scan(&generation); err != nil {
		return Result{}, fmt.Errorf("read search index: %w", err)
	}
	pos, err := decodeCursor(q, generation)
	if err != nil {
		return Result{}, err
	}
	if pos.Ceiling == 0 {
		if err := db.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM docs").Scan(&pos.Ceiling); err != nil {
			return Result{}, fmt.Errorf("read search index: %w", err)
		}
	}
	expr, hits, err := ix.interpretAndRun(ctx, db, q, &pos)
	if err != nil {
		return Result{}, err
	}
	res := Result{Hits: make([]Hit, 0, len(hits)), Interpreted: expr}
	if len(hits) > q.Limit {
		hits = hits[:q.Limit]
		next := pos
		next.Offset += q.Limit
		next.After = hits[len(hits)-1].docID
		res.NextCursor = encodeCursor(q, generation, next)
	}
	if err := ix.snippets(ctx, db, q, expr, hits); err != nil {
		return Result{}, err
	}
	for _, h := range hits {
		res.Hits = append(res.Hits, h.Hit)
	}
	return res, nil
}

// Interpretations of a query, tried in order on the first page and fixed
// by the cursor for the pages after it.
const (
	asWritten   = iota // FTS5 syntax, as the caller wrote it
	allWords           // not valid FTS5: every word, quoted, must match
	allPrefixes        // plain words that found nothing: every word as a prefix
	anyWord            // no hit needing every word: any word may match
)

// interpretAndRun runs the query as written; if SQLite refuses its syntax,
// as quoted words that must all match. Plain words (a person's text with
// no FTS5 syntax) that find nothing as written are tried again with every
// word as a prefix ("limi" finds "limiter"), when there are few enough of
// them for the prefix limit. Last, any word may match, best first. A
// person's raw text therefore never fails on syntax, and an expression
// written in FTS5 syntax that is valid runs exactly as written. pos.Mode
// records the choice for later pages.
func (ix *Index) interpretAndRun(ctx context.Context, db *sql.DB, q Query, pos *position) (string, []scored, error) {
	if q.Cursor != "" {
		expr := interpretation(q.Text, pos.Mode)
		hits, err := ix.run(ctx, db, q, expr, *pos)
		return expr, hits, err
	}
	hits, err := ix.run(ctx, db, q, q.Text, *pos)
	plain := plainWords(q.Text)
	switch {
	case err == nil && (len(hits) > 0 || !plain):
		return q.Text, hits, nil
	case err != nil && (ctx.Err() != nil || !isQuerySyntax(err)):
		return q.Text, hits, err
	}
	for _, mode := range ix.fallbacks(q.Text, plain) {
		pos.Mode = mode
		expr := interpretation(q.Text, mode)
		if hits, err = ix.run(ctx, db, q, expr, *pos); err != nil || len(hits) > 0 {
			return expr, hits, err
		}
	}
	return interpretation(q.Text, anyWord), nil, nil
}

// fallbacks lists the interpretations to try after the query as written
// found nothing (plain words) or was not valid FTS5.
func (ix *Index) fallbacks(text string, plain bool) []int {
	var modes []int
	if !plain {
		modes = append(modes, allWords)
	}
	if n := len(strings.Fields(words(text, " "))); n > 0 && n <= ix.opts.Limits.Prefixes {
		modes = append(modes, allPrefixes)
	}
	return append(modes, anyWord)
}

// plainWords reports whether text is words only: letters, digits and
// spaces, none of them an FTS5 operator. Such text means the same as
// written and as quoted words.
func plainWords(text string) bool {
	for _, tok := range strings.Fields(text) {
		switch tok {
		case "AND", "OR", "NOT", "NEAR":
			return false
		}
		for _, r := range tok {
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return false
			}
		}
	}
	return true
}

func interpretation(text string, mode int) string {
	switch mode {
	case allWords:
		return words(text, " ")
	case allPrefixes:
		return prefixes(text)
	case anyWord:
		return words(text, " OR ")
	}
	return text
}
