package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
)

// ReadHead reads a workspace's journal head inside q's transaction.
// With lock, the workspace row stays locked until the transaction ends.
//
// The lock is FOR NO KEY UPDATE, not FOR UPDATE: a transaction that has
// already inserted a row referencing the workspace (a session, a task)
// holds FOR KEY SHARE on it through the foreign key, and two such
// transactions both asking FOR UPDATE wait for each other — a deadlock
// that, with many writers retrying, starved one writer for the whole retry
// window (16 processes starting sessions at once). FOR NO KEY UPDATE
// conflicts with itself, so appends still queue on the row, but not with
// FOR KEY SHARE; the head UPDATE (Append) changes no key column and takes
// the same lock.
func ReadHead(ctx context.Context, q Querier, workspaceID string, lock bool) (engine.Head, bool, error) {
	h := engine.Head{WorkspaceID: workspaceID}
	query := "SELECT epoch_id, event_head_sequence, event_head_hash FROM workspaces WHERE id = ?"
	if lock {
		query += " FOR NO KEY UPDATE"
	}
	err := q.QueryRowContext(ctx, query, workspaceID).
		Scan(&h.EpochID, &h.Sequence, &h.Hash)
	if err == sql.ErrNoRows {
		return h, false, nil
	}
	if err != nil {
		return h, false, fmt.Errorf("read journal head: %w", err)
	}
	return h, true, nil
}

// EventColumns is the column list every event query selects, in scan order.
const EventColumns = "workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor, occurred_at, payload_json, prev_hash, hash, session_id"

// ScanEvent reads one row selected with EventColumns.
func ScanEvent(rows *sql.Rows, e *journal.Event) error {
	var payload string
	var session sql.NullString
	if err := rows.Scan(&e.WorkspaceID, &e.EpochID, &e.Sequence, &e.ID, &e.Protocol, &e.Type, &e.EntityID,
		&e.Actor, &e.OccurredAt, &payload, &e.PrevHash, &e.Hash, &session); err != nil {
		return fmt.Errorf("read event: %w", err)
	}
	e.PayloadJSON = []byte(payload)
	e.SessionID = nil
	if session.Valid {
		sid := session.String
		e.SessionID = &sid
	}
	return nil
}
