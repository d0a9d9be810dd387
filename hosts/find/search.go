// Package find is the search command: a person's full-text search of
// everything in a journal, printed as hits or JSON.
package find

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/dbfile"
	"github.com/agenttool/collab/hosts/termtext"
)

const searchUsage = `search QUERY... [flags]

Search every report, decision, task, progress note, review, handoff,
artifact and event payload in the journal, best match first. Plain words
just work; FTS5 syntax ("phrases", prefix*, AND, OR, NOT) is honoured.
The index lives beside the database in <database>.search; the database
itself is only read.`

// Search runs a full-text search for a person. It exits 0 when the
// search ran (with or without hits), 1 when it failed, 2 on bad usage.
func Search(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := command.NewParser("search", searchUsage)
	fs := c.Flags
	db := fs.String("db", "", "database file (default: the one the server would open)")
	asJSON := fs.Bool("json", false, "print one JSON object for scripts")
	rebuild := fs.Bool("rebuild", false, "rebuild the index from the whole journal first")
	workspace := fs.String("workspace", "", "only this workspace id")
	var kinds command.List
	fs.Var(&kinds, "kind", "only hits of this kind (repeat or comma-separate): "+strings.Join(search.Kinds, ", "))
	actor := fs.String("actor", "", "only events written under this actor label")
	session := fs.String("session", "", "only events written by this session id")
	task := fs.String("task", "", "only events about this task id")
	since := fs.String("since", "", "earliest hit: a journal sequence, RFC 3339 time or YYYY-MM-DD")
	until := fs.String("until", "", "latest hit: a journal sequence, RFC 3339 time or YYYY-MM-DD")
	order := fs.String("order", search.ByRelevance, "relevance or recent")
	limit := fs.Int("limit", search.DefaultLimit, fmt.Sprintf("hits per page, 1 to %d", search.MaxLimit))
	cursor := fs.String("cursor", "", "continue from the cursor a previous page printed")
	words, code, done := c.Parse(args, 0, -1, stdout, stderr)
	if done {
		return code
	}
	text := strings.Join(words, " ")
	if text == "" && !*rebuild {
		return c.UsageFailure(stderr, "give words to search for")
	}
	q := search.Query{WorkspaceID: *workspace, Text: text, Kinds: kinds, Actor: *actor, SessionID: *session, TaskID: *task,
		Order: *order, Limit: *limit, Cursor: *cursor}
	var err error
	if q.Since, err = search.ParseBound(*since, false); err != nil {
		return command.Failure(stderr, err) + 1
	}
	if q.Until, err = search.ParseBound(*until, true); err != nil {
		return command.Failure(stderr, err) + 1
	}
	var marks snippetMarks
	if !*asJSON && command.ColorFor(stdout) {
		marks = newSnippetMarks()
		q.MarkOpen, q.MarkClose = marks.open, marks.close
	}
	return runSearch(ctx, *db, *rebuild, q, marks, *asJSON, stdout, stderr)
}

func runSearch(ctx context.Context, db string, rebuild bool, q search.Query, marks snippetMarks, asJSON bool, stdout, stderr io.Writer) int {
	path, _, err := dbfile.ReadTarget(db)
	if err != nil {
		return command.Failure(stderr, err)
	}
	st, err := backend.Open(ctx, backend.Options{Path: path, ReadOnly: true})
	if err != nil {
		return command.Failure(stderr, err)
	}
	defer st.Close()
	ix, err := search.Open(ctx, st)
	if err != nil {
		return command.Failure(stderr, err)
	}
	defer ix.Close()
	if rebuild {
		if err := ix.Rebuild(ctx); err != nil {
			return command.Failure(stderr, err)
		}
		if q.Text == "" {
			fmt.Fprintf(stdout, "rebuilt %s\n", ix.Path())
			return 0
		}
	}
	res, err := ix.Search(ctx, q)
	if err != nil {
		return command.Failure(stderr, err)
	}
	var withheld int
	if res.Hits, withheld, err = withholdHits(ctx, st, res.Hits); err != nil {
		return command.Failure(stderr, err)
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		hits := res.Hits
		if hits == nil {
			hits = []search.Hit{}
		}
		var next *string
		if res.NextCursor != "" {
			next = &res.NextCursor
		}
		out := map[string]any{"query": q.Text, "interpreted_as": res.Interpreted, "hits": hits, "next_cursor": next}
		if withheld > 0 {
			out["withheld"] = withheld
		}
		enc.Encode(out)
		return 0
	}
	printHits(stdout, q, res, marks)
	if withheld > 0 {
		fmt.Fprintf(stdout, "%d more withheld by your open independence claim (docs/independence.md)\n", withheld)
	}
	return 0
}

// printHits prints the hits for a person; every piece of journal text is
// escaped for the terminal (hosts/termtext), the snippet through marks.
func printHits(w io.Writer, q search.Query, res search.Result, marks snippetMarks) {
	esc := termtext.Label
	switch len(res.Hits) {
	case 0:
		fmt.Fprintf(w, "no hits for %q\n", q.Text)
	case 1:
		fmt.Fprintf(w, "1 hit for %q\n", q.Text)
	default:
		fmt.Fprintf(w, "%d hits for %q\n", len(res.Hits), q.Text)
	}
	if res.Interpreted != q.Text {
		fmt.Fprintf(w, "(searched as %s)\n", esc(res.Interpreted))
	}
	for _, h := range res.Hits {
		fmt.Fprintf(w, "\n#%d %s %s  %s", h.Sequence, esc(h.Kind), esc(h.ID), esc(h.OccurredAt))
		if h.TaskID != nil && *h.TaskID != h.ID {
			fmt.Fprintf(w, "  task %s", esc(*h.TaskID))
		}
		fmt.Fprintf(w, "  by %s", esc(h.Actor))
		if q.WorkspaceID == "" {
			fmt.Fprintf(w, "  in %s", esc(h.WorkspaceID))
		}
		fmt.Fprintln(w)
		if h.Title != "" {
			fmt.Fprintf(w, "  %s\n", esc(oneLine(h.Title)))
		}
		fmt.Fprintf(w, "  %s\n", marks.render(oneLine(h.Snippet)))
	}
	if res.NextCursor != "" {
		fmt.Fprintf(w, "\nmore: add --cursor %s\n", esc(res.NextCursor))
	}
}

// oneLine folds line breaks so each hit prints as a short block.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
