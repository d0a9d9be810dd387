package sqltx

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// queryEvents runs a query selecting EventColumns and returns its events
// in the query's order, never nil; what names the read in an error.
func queryEvents(ctx context.Context, q Runner, what, query string, args ...any) ([]journal.Event, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rows.Close()
	out := []journal.Event{}
	for rows.Next() {
		var e journal.Event
		if err := ScanEvent(rows, &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// eventsAfter is the page read a poll makes: the statement Events runs
// for an ascending range with no upper bound and no type, one constant
// text so that it is never built again.
const eventsAfter = "SELECT " + EventColumns + " FROM events WHERE workspace_id = ? AND sequence > ? ORDER BY sequence LIMIT ?"

// Events reads one page of r along the events primary key: from r.After
// upwards, or from r.Before (the head when zero) downwards when r.Newest,
// checking the type of each row it passes when r.Types is not empty.
func (t *Tx) Events(ctx context.Context, workspaceID string, r store.EventRange) ([]journal.Event, error) {
	return t.EventsSelecting(ctx, EventColumns, workspaceID, r)
}

// EventsSelecting is Events selecting columns: EventColumns, or what
// stands for them in an engine's older layout, in ScanEvent's order.
func (t *Tx) EventsSelecting(ctx context.Context, columns, workspaceID string, r store.EventRange) ([]journal.Event, error) {
	limit := t.d.limit(int64(r.Limit))
	if columns == EventColumns && r.Before <= 0 && len(r.Types) == 0 && !r.Newest {
		return queryEvents(ctx, t, "read events", eventsAfter, workspaceID, r.After, limit)
	}
	var q strings.Builder
	q.WriteString("SELECT " + columns + " FROM events WHERE workspace_id = ? AND sequence > ?")
	args := make([]any, 0, 4+len(r.Types))
	args = append(args, workspaceID, r.After)
	if r.Before > 0 {
		q.WriteString(" AND sequence < ?")
		args = append(args, r.Before)
	}
	if len(r.Types) > 0 {
		q.WriteString(" AND type IN (?" + strings.Repeat(", ?", len(r.Types)-1) + ")")
		for _, k := range r.Types {
			args = append(args, k)
		}
	}
	q.WriteString(" ORDER BY sequence")
	if r.Newest {
		q.WriteString(" DESC")
	}
	q.WriteString(" LIMIT ?")
	return queryEvents(ctx, t, "read events", q.String(), append(args, limit)...)
}

// EachEventAfter streams the events after a sequence.
func (t *Tx) EachEventAfter(ctx context.Context, workspaceID string, after int64, fn func(e *journal.Event) error) error {
	return EachEvent(ctx, t, EventColumns, workspaceID, after, fn)
}

// EachEvent streams the events of a workspace after a sequence, selecting
// columns: EventColumns, or what stands for them in an engine's older
// layout, in ScanEvent's order.
func EachEvent(ctx context.Context, q Runner, columns, workspaceID string, after int64, fn func(e *journal.Event) error) error {
	rows, err := q.QueryContext(ctx, "SELECT "+columns+" FROM events WHERE workspace_id = ? AND sequence > ? ORDER BY sequence",
		workspaceID, after)
	if err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	defer rows.Close()
	var e journal.Event
	for rows.Next() {
		if err := ScanEvent(rows, &e); err != nil {
			return err
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	return nil
}

// EventTypes reads the distinct types after a sequence.
func (t *Tx) EventTypes(ctx context.Context, workspaceID string, after int64) ([]string, error) {
	rows, err := t.QueryContext(ctx, "SELECT DISTINCT type FROM events WHERE workspace_id = ? AND sequence > ? ORDER BY type",
		workspaceID, after)
	if err != nil {
		return nil, fmt.Errorf("read event types: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("read event types: %w", err)
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// Heads reads every workspace's head.
func (t *Tx) Heads(ctx context.Context) ([]store.JournalHead, error) {
	rows, err := t.QueryContext(ctx, "SELECT id, epoch_id, event_head_sequence, event_head_hash FROM workspaces ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("read journal heads: %w", err)
	}
	defer rows.Close()
	out := []store.JournalHead{}
	for rows.Next() {
		var h store.JournalHead
		if err := rows.Scan(&h.WorkspaceID, &h.EpochID, &h.Sequence, &h.Hash); err != nil {
			return nil, fmt.Errorf("read journal head: %w", err)
		}
		out = append(out, h)
	}
	return out, rows.Err()
}
