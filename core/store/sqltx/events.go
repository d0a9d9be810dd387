package sqltx

import (
	"context"
	"database/sql"
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

// EventsAfter reads one page along the events primary key.
func (t *Tx) EventsAfter(ctx context.Context, workspaceID string, after int64, limit int) ([]journal.Event, error) {
	return queryEvents(ctx, t, "read events", "SELECT "+EventColumns+
		" FROM events WHERE workspace_id = ? AND sequence > ? ORDER BY sequence LIMIT ?", workspaceID, after, t.d.limit(int64(limit)))
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

// EventsBefore reads one page backwards along the events primary key.
func (t *Tx) EventsBefore(ctx context.Context, workspaceID string, before int64, eventType string, limit int) ([]journal.Event, error) {
	query := "SELECT " + EventColumns + " FROM events WHERE workspace_id = ?"
	args := []any{workspaceID}
	if before > 0 {
		query += " AND sequence < ?"
		args = append(args, before)
	}
	if eventType != "" {
		query += " AND type = ?"
		args = append(args, eventType)
	}
	return queryEvents(ctx, t, "read events", query+" ORDER BY sequence DESC LIMIT ?", append(args, t.d.limit(int64(limit)))...)
}

// EventsOfTypes walks the primary key from after and reads payloads only
// of the rows whose type matches.
func (t *Tx) EventsOfTypes(ctx context.Context, workspaceID string, after int64, types []string, limit int) ([]journal.Event, error) {
	args := []any{workspaceID, after}
	for _, k := range types {
		args = append(args, k)
	}
	args = append(args, t.d.limit(int64(limit)))
	return queryEvents(ctx, t, "read wake events", "SELECT "+EventColumns+
		" FROM events WHERE workspace_id = ? AND sequence > ? AND type IN (?"+
		strings.Repeat(", ?", len(types)-1)+") ORDER BY sequence LIMIT ?", args...)
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

// EventAnchor reads the epoch and hash stored at one sequence.
func (t *Tx) EventAnchor(ctx context.Context, workspaceID string, sequence int64) (journal.Anchor, bool, error) {
	a := journal.Anchor{Sequence: sequence}
	err := t.QueryRowContext(ctx, "SELECT epoch_id, hash FROM events WHERE workspace_id = ? AND sequence = ?",
		workspaceID, sequence).Scan(&a.EpochID, &a.Hash)
	if err == sql.ErrNoRows {
		return a, false, nil
	}
	if err != nil {
		return a, false, fmt.Errorf("read event %d: %w", sequence, err)
	}
	return a, true, nil
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
