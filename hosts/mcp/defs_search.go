package mcp

import (
	"fmt"
	"github.com/agenttool/collab/core/field"

	"github.com/agenttool/collab/core/search"
)

// searchTool is collab_search, served by handleSearch.
func searchTool() (Tool, Handler) {
	return Tool{
		Name: "collab_search", Title: "Search everything in the journal", Class: ReadOnly,
		Description: "Full-text search of one workspace's reports (addressed or not), decisions, tasks, progress notes, reviews, handoffs, artifacts and every event payload, best match first. Plain words just work; FTS5 syntax (\"phrases\", prefix*, AND, OR, NOT) is honoured. Reading never acknowledges.",
		Input: object([]Property{
			{"workspace_id", workspaceIDField()},
			{"query", str().min(1).max(search.DefaultLimits.Length).describe(queryDescription())},
			{"kinds", array(enum(search.Kinds...)).max(len(search.Kinds)).describe("Only hits of these kinds")},
			{"actor", textField(field.Actor).describe("Only events written under this actor label")},
			{"session_id", idField(field.SessionID).describe("Only events written by this session")},
			{"task_id", idField(field.TaskID).describe("Only events about this task")},
			{"since", boundField("Earliest hit, inclusive")},
			{"until", boundField("Latest hit, inclusive")},
			{"order", enum(search.ByRelevance, search.ByRecency).describe("relevance (default) or recent; recent pages stay exact while the journal grows")},
			{"limit", integer().atLeast(1).atMost(search.MaxLimit).describe("Hits per page, 1 to 50 (default 10)")},
			{"cursor", textField(field.SearchCursor).describe("next_cursor of the previous page; repeat the same query and filters")},
		}, "workspace_id", "query"),
	}, handleSearch
}

func boundField(what string) *Schema {
	return textField(field.SearchBound).describe(what + ": a journal sequence number, an RFC 3339 time or a YYYY-MM-DD date")
}

// queryDescription tells the model the query limits the index enforces,
// so that it does not have to learn them from a refusal.
func queryDescription() string {
	l := search.DefaultLimits
	return fmt.Sprintf("Words to find, or an FTS5 expression; text that is not valid FTS5 is searched as plain words. "+
		"At most %d words (operators count), %d prefix terms and a NEAR width of %d", l.Terms, l.Prefixes, l.NearWidth)
}
