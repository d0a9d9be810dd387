package sqlite

import (
	"context"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// legacyEventColumns stands for sqltx.EventColumns in a layout whose
// events table predates the session_id column: it reads as NULL.
const legacyEventColumns = "workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor, occurred_at, " +
	"payload_json, prev_hash, hash, NULL"

// EachEventAfter streams the events after a sequence (see
// sqltx.EachEvent), in the layout of this file, which may predate the
// session_id column.
func (t *Tx) EachEventAfter(ctx context.Context, workspaceID string, after int64, fn func(e *journal.Event) error) error {
	hasSession, err := ColumnExists(ctx, t, "events", "session_id")
	if err != nil {
		return err
	}
	columns := sqltx.EventColumns
	if !hasSession {
		columns = legacyEventColumns
	}
	return sqltx.EachEvent(ctx, &t.Tx, columns, workspaceID, after, fn)
}

// Events reads a page (see sqltx.Tx.Events) in the layout of this file
// (every event of some types through typedEvents, see type_index.go): a
// read that fails because the events table predates the session_id column
// is read again with legacyEventColumns. Only a failed read asks about the
// layout, so the current layout pays nothing for it.
func (t *Tx) Events(ctx context.Context, workspaceID string, r store.EventRange) ([]journal.Event, error) {
	if unboundedTyped(r) {
		if events, err := t.typedEvents(ctx, workspaceID, r); err == nil {
			return events, nil
		}
	}
	events, err := t.Tx.Events(ctx, workspaceID, r)
	if err == nil {
		return events, nil
	}
	if hasSession, cerr := ColumnExists(ctx, t, "events", "session_id"); cerr != nil || hasSession {
		return nil, err
	}
	return t.EventsSelecting(ctx, legacyEventColumns, workspaceID, r)
}
