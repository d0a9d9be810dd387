package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// scored is a hit with the index row it came from.
type scored struct {
	Hit
	docID int64
}

// bm25Weights rank a match in the title above one in the body.
const bm25Weights = "4.0, 1.0"

// rankExpr is a hit's rank: its bm25 score (lower is better), doubled for
// decisions, which a person searching a topic wants first.
const rankExpr = "bm25(text, " + bm25Weights + ") * CASE d.kind WHEN 'decision' THEN 2.0 ELSE 1.0 END"

// run returns up to q.Limit+1 hits of expr after pos, without snippets.
func (ix *Index) run(ctx context.Context, db *sql.DB, q Query, expr string, pos position) ([]scored, error) {
	var where []string
	args := []any{expr, pos.Ceiling}
	add := func(clause string, v any) {
		where = append(where, clause)
		args = append(args, v)
	}
	if q.WorkspaceID != "" {
		add("w.workspace_id = ?", q.WorkspaceID)
	}
	if len(q.Kinds) > 0 {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(q.Kinds)), ", ")
		where = append(where, "d.kind IN ("+marks+")")
		for _, k := range q.Kinds {
			args = append(args, k)
		}
	}
	if q.Actor != "" {
		add("d.actor = ?", q.Actor)
	}
	if q.SessionID != "" {
		add("d.session_id = ?", q.SessionID)
	}
	if q.TaskID != "" {
		add("d.task_id = ?", q.TaskID)
	}
	where = append(where, q.Since.clause(">="), q.Until.clause("<="))
	args = append(args, q.Since.args()...)
	args = append(args, q.Until.args()...)
	order := "rank, d.id"
	if q.Order == ByRecency {
		order = recentOrder
		if pos.After != 0 {
			add(recentAfter, pos.After)
		}
	}
	query := `SELECT d.id, d.kind, d.event_type, w.workspace_id, d.sequence, d.ref_id, d.task_id, d.actor, d.session_id,
d.occurred_at, ` + rankExpr + ` AS rank
FROM text JOIN docs d ON d.id = text.rowid JOIN workspaces w ON w.ws = d.ws
WHERE text MATCH ? AND text.rowid <= ?`
	for _, c := range where {
		if c != "" {
			query += " AND " + c
		}
	}
	query += " ORDER BY " + order + " LIMIT ?"
	args = append(args, q.Limit+1)
	if q.Order == ByRelevance {
		query += " OFFSET ?"
		args = append(args, pos.Offset)
	}
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	defer rows.Close()
	var out []scored
	for rows.Next() {
		var h scored
		if err := rows.Scan(&h.docID, &h.Kind, &h.EventType, &h.WorkspaceID, &h.Sequence, &h.ID, &h.TaskID, &h.Actor,
			&h.SessionID, &h.OccurredAt, &h.Rank); err != nil {
			return nil, fmt.Errorf("search: %w", err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	return out, nil
}

// snippets fills in the title and a marked snippet of each hit. They are
// computed for the page only, never for every match.
func (ix *Index) snippets(ctx context.Context, db *sql.DB, q Query, expr string, hits []scored) error {
	if len(hits) == 0 {
		return nil
	}
	byID := make(map[int64]*scored, len(hits))
	args := []any{q.MarkOpen, q.MarkClose, expr}
	for i := range hits {
		byID[hits[i].docID] = &hits[i]
		args = append(args, hits[i].docID)
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(hits)), ", ")
	rows, err := db.QueryContext(ctx, `SELECT rowid, title, snippet(text, -1, ?, ?, '…', 16) FROM text
WHERE text MATCH ? AND rowid IN (`+marks+`)`, args...)
	if err != nil {
		return fmt.Errorf("search snippets: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var title, snippet string
		if err := rows.Scan(&id, &title, &snippet); err != nil {
			return fmt.Errorf("search snippets: %w", err)
		}
		if h := byID[id]; h != nil {
			h.Title, h.Snippet = title, snippet
		}
	}
	return rows.Err()
}

// isQuerySyntax reports whether err is SQLite refusing the MATCH
// expression (a syntax error, an unknown column filter, an unterminated
// string) rather than failing to read the index.
func isQuerySyntax(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code()&0xff == sqlite3.SQLITE_ERROR && !isMissingTable(err)
	}
	return false
}
