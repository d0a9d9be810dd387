package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"unsafe"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
)

// Full verification reads every event of a journal, so it talks to the
// driver directly: database/sql's per-column reflection would otherwise
// cost more than hashing the events does.

// VerifyOnConn verifies a workspace journal inside one read snapshot taken
// on conn.
func VerifyOnConn(ctx context.Context, conn *sql.Conn, h engine.Head) (bool, error) {
	var ok bool
	err := conn.Raw(func(dc any) error {
		c, isConn := dc.(driver.Conn)
		if !isConn {
			return errors.New("driver connection does not implement driver.Conn")
		}
		var err error
		ok, err = verifyRaw(ctx, c, h)
		return err
	})
	return ok, err
}

// verifyRaw recomputes the chain of h's workspace with driver-level rows.
func verifyRaw(ctx context.Context, c driver.Conn, h engine.Head) (bool, error) {
	// Columns that almost always repeat the workspace's epoch and the
	// current protocol come back as NULL when they do, which the driver
	// returns without copying any text.
	const query = "SELECT CASE WHEN epoch_id = ?2 THEN NULL ELSE epoch_id END, sequence, id," +
		" CASE WHEN protocol = ?3 THEN NULL ELSE protocol END, type, entity_id, actor, occurred_at, payload_json," +
		" prev_hash, hash, session_id FROM events WHERE workspace_id = ?1 ORDER BY sequence"
	prep, ok := c.(driver.ConnPrepareContext)
	if !ok {
		return false, errors.New("driver cannot prepare with a context")
	}
	stmt, err := prep.PrepareContext(ctx, query)
	if err != nil {
		return false, fmt.Errorf("prepare journal read: %w", err)
	}
	defer stmt.Close()
	sq, ok := stmt.(driver.StmtQueryContext)
	if !ok {
		return false, errors.New("driver statement cannot query with a context")
	}
	rows, err := sq.QueryContext(ctx, []driver.NamedValue{{Ordinal: 1, Value: h.WorkspaceID},
		{Ordinal: 2, Value: h.EpochID}, {Ordinal: 3, Value: journal.ProtocolV2}})
	if err != nil {
		return false, fmt.Errorf("read journal: %w", err)
	}
	defer rows.Close()
	v := journal.NewVerifier(0, journal.GenesisHash)
	vals := make([]driver.Value, 12)
	e := journal.Event{WorkspaceID: h.WorkspaceID}
	for {
		if err := rows.Next(vals); err != nil {
			if err == io.EOF {
				break
			}
			return false, fmt.Errorf("read journal: %w", err)
		}
		if !eventFromValues(&e, vals, h.EpochID) || !v.Next(&e) {
			return false, nil
		}
	}
	seq, hash := v.Last()
	return seq == h.Sequence && hash == h.Hash, nil
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
