package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"

	"github.com/agenttool/collab/core/journal"
)

// Full verification reads every event of a journal, so it talks to the
// driver directly: database/sql's per-column reflection would otherwise
// cost more than hashing the events does.

// verifyOnConn verifies a workspace journal inside one read snapshot taken
// on conn.
func verifyOnConn(ctx context.Context, conn *sql.Conn, h head) (bool, error) {
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
func verifyRaw(ctx context.Context, c driver.Conn, h head) (bool, error) {
	const query = "SELECT epoch_id, sequence, id, protocol, type, entity_id, actor, occurred_at, payload_json, prev_hash, hash, session_id" +
		" FROM events WHERE workspace_id = ? ORDER BY sequence"
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
	rows, err := sq.QueryContext(ctx, []driver.NamedValue{{Ordinal: 1, Value: h.WorkspaceID}})
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
		if !eventFromValues(&e, vals) || !v.Next(&e) {
			return false, nil
		}
	}
	seq, hash := v.Last()
	return seq == h.Sequence && hash == h.Hash, nil
}

// eventFromValues fills e from one driver row; false means a column had
// an unexpected type (which no valid journal has).
func eventFromValues(e *journal.Event, vals []driver.Value) bool {
	var ok [11]bool
	e.EpochID, ok[0] = vals[0].(string)
	e.Sequence, ok[1] = vals[1].(int64)
	e.ID, ok[2] = vals[2].(string)
	e.Protocol, ok[3] = vals[3].(string)
	e.Type, ok[4] = vals[4].(string)
	e.EntityID, ok[5] = vals[5].(string)
	e.Actor, ok[6] = vals[6].(string)
	e.OccurredAt, ok[7] = vals[7].(string)
	payload, isText := vals[8].(string)
	e.PayloadJSON, ok[8] = []byte(payload), isText
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
