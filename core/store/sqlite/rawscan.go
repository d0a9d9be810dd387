package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"math"
	"unsafe"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// Full verification reads every event of a journal, so it talks to the
// driver directly: database/sql's per-column reflection would otherwise
// cost more than hashing the events does. The strings the driver returns
// are fresh Go strings, so an event may be handed to another goroutine.

// span is the stretch of a journal a stream reads: the events whose
// sequence is above after and at most upTo.
type span struct{ after, upTo int64 }

// wholeJournal is every event of a journal, those stored with a sequence
// below 1 included: such a row breaks the chain, as it does when the
// journal is read through database/sql or in halves.
var wholeJournal = span{after: math.MinInt64, upTo: math.MaxInt64}

// journalQuery reads the events of one journal within a span, in sequence
// order, for streamDriver and streamDirect: the workspace id is not
// selected (it is the head's), and an epoch or protocol equal to the
// workspace's epoch and the current protocol comes back as NULL, which
// costs no copy.
const journalQuery = "SELECT CASE WHEN epoch_id = ?2 THEN NULL ELSE epoch_id END, sequence, id," +
	" CASE WHEN protocol = ?3 THEN NULL ELSE protocol END, type, entity_id, actor, occurred_at, payload_json," +
	" prev_hash, hash, session_id FROM events WHERE workspace_id = ?1 AND sequence > ?4 AND sequence <= ?5" +
	" ORDER BY sequence"

// streamRaw streams the events of h's journal within sp to fn with
// driver-level rows, inside the snapshot conn holds.
func streamRaw(ctx context.Context, conn *sql.Conn, h store.JournalHead, sp span, fn func(e *journal.Event) error) error {
	return conn.Raw(func(dc any) error {
		c, isConn := dc.(driver.Conn)
		if !isConn {
			return errors.New("driver connection does not implement driver.Conn")
		}
		return streamDriver(ctx, c, h, sp, fn)
	})
}

// streamDriver reads the events of h's journal within sp with one driver
// statement (journalQuery, whose NULLs the driver returns without copying
// any text).
func streamDriver(ctx context.Context, c driver.Conn, h store.JournalHead, sp span, fn func(e *journal.Event) error) error {
	prep, ok := c.(driver.ConnPrepareContext)
	if !ok {
		return errors.New("driver cannot prepare with a context")
	}
	stmt, err := prep.PrepareContext(ctx, journalQuery)
	if err != nil {
		return fmt.Errorf("prepare journal read: %w", err)
	}
	defer stmt.Close()
	sq, ok := stmt.(driver.StmtQueryContext)
	if !ok {
		return errors.New("driver statement cannot query with a context")
	}
	rows, err := sq.QueryContext(ctx, []driver.NamedValue{{Ordinal: 1, Value: h.WorkspaceID},
		{Ordinal: 2, Value: h.EpochID}, {Ordinal: 3, Value: journal.ProtocolV2},
		{Ordinal: 4, Value: sp.after}, {Ordinal: 5, Value: sp.upTo}})
	if err != nil {
		return fmt.Errorf("read journal: %w", err)
	}
	defer rows.Close()
	vals := make([]driver.Value, 12)
	e := journal.Event{WorkspaceID: h.WorkspaceID}
	for {
		if err := rows.Next(vals); err != nil {
			if err == io.EOF {
				return nil
			}
			return fmt.Errorf("read journal: %w", err)
		}
		if !eventFromValues(&e, vals, h.EpochID) {
			return journal.ErrUnreadableEvent
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
}

// eventFromValues fills e from one driver row; false means a column had
// an unexpected type (which no valid journal has). A NULL epoch or
// protocol stands for the workspace epoch and the current protocol.
func eventFromValues(e *journal.Event, vals []driver.Value, epoch string) bool {
	var ok [11]bool
	e.EpochID, ok[0] = vals[0].(string)
	if vals[0] == nil {
		e.EpochID, ok[0] = epoch, true
	}
	e.Sequence, ok[1] = vals[1].(int64)
	e.ID, ok[2] = vals[2].(string)
	e.Protocol, ok[3] = vals[3].(string)
	if vals[3] == nil {
		e.Protocol, ok[3] = journal.ProtocolV2, true
	}
	e.Type, ok[4] = vals[4].(string)
	e.EntityID, ok[5] = vals[5].(string)
	e.Actor, ok[6] = vals[6].(string)
	e.OccurredAt, ok[7] = vals[7].(string)
	payload, isText := vals[8].(string)
	// The payload is only read (canonicalised and hashed), never kept or
	// modified, so it is viewed in place rather than copied.
	e.PayloadJSON, ok[8] = unsafe.Slice(unsafe.StringData(payload), len(payload)), isText
	e.PrevHash, ok[9] = vals[9].(string)
	e.Hash, ok[10] = vals[10].(string)
	e.SessionID = nil
	switch sid := vals[11].(type) {
	case nil:
	case string:
		e.SessionID = &sid
	default:
		return false
	}
	for _, b := range ok {
		if !b {
			return false
		}
	}
	return true
}
