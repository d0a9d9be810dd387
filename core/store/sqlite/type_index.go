package sqlite

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// A read of every event of a few types (the independence claims a
// process folds on its first call) walks the events primary key, and so
// every event row of the journal: about a microsecond an event, a second
// at a million. Once a journal is long, the file gains an index on
// (workspace_id, type, sequence); SQLite keeps it for every writer,
// the reference included, so the same read visits only the rows of those
// types. A file whose journals are all shorter never gains it, so small
// reference files keep their schema text; a copy does not carry it (the
// target's own open adds it when the copied journal is long).

// TypeIndex names the events index an open adds to a long journal.
const TypeIndex = "events_workspace_type_sequence"

// TypeIndexDDL creates the index; opens of files with only short
// journals never run it.
const TypeIndexDDL = "CREATE INDEX IF NOT EXISTS " + TypeIndex + " ON events(workspace_id, type, sequence)"

// typeIndexAfter is the journal length from which an open adds the
// index: below it, reading every event of a journal costs about a
// millisecond, less than the index would cost the appends of a small file.
const typeIndexAfter = 1024

// eventTypes is TypeIndex, gained once one journal of the file holds
// typeIndexAfter events.
var eventTypes = longFileIndex{
	name:  TypeIndex,
	ddl:   TypeIndexDDL,
	rows:  "SELECT 1 FROM workspaces WHERE event_head_sequence >= " + strconv.Itoa(typeIndexAfter),
	after: 1,
}

// typedEventsQuery reads every event of n types after a sequence. Its
// ORDER BY names +sequence, which no index yields, so the planner picks
// the index that finds the fewest rows (TypeIndex when the file has it,
// the primary key otherwise) and sorts the matches: the read is
// unbounded, so it never stops early, and sorting only the matching rows
// costs far less than walking every row.
func typedEventsQuery(n int) string {
	return "SELECT " + sqltx.EventColumns + " FROM events WHERE workspace_id = ? AND sequence > ? AND type IN (?" +
		strings.Repeat(", ?", n-1) + ") ORDER BY +sequence"
}

// unboundedTyped reports whether r reads every event of some types after
// a sequence: the read typedEventsQuery makes.
func unboundedTyped(r store.EventRange) bool {
	return r.Limit < 0 && len(r.Types) > 0 && r.Before <= 0 && !r.Newest
}

// typedEvents runs typedEventsQuery for r.
func (t *Tx) typedEvents(ctx context.Context, workspaceID string, r store.EventRange) ([]journal.Event, error) {
	args := make([]any, 0, 2+len(r.Types))
	args = append(args, workspaceID, r.After)
	for _, k := range r.Types {
		args = append(args, k)
	}
	rows, err := t.QueryContext(ctx, typedEventsQuery(len(r.Types)), args...)
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	defer rows.Close()
	out := []journal.Event{}
	for rows.Next() {
		var e journal.Event
		if err := sqltx.ScanEvent(rows, &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	return out, nil
}
