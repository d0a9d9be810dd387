package sqltx

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// HeadQuery selects a workspace's journal head; its one parameter is the
// workspace id.
const HeadQuery = "SELECT epoch_id, event_head_sequence, event_head_hash FROM workspaces WHERE id = ?"

// ReadHead reads a workspace's journal head inside q's transaction with
// query: HeadQuery, or HeadQuery followed by the engine's clause that
// keeps the row locked until the transaction ends.
func ReadHead(ctx context.Context, q Runner, query, workspaceID string) (store.JournalHead, bool, error) {
	h := store.JournalHead{WorkspaceID: workspaceID}
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
func ScanEvent(rows Row, e *journal.Event) error {
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

// Append inserts e and moves the workspace's head to it.
func (t *Tx) Append(ctx context.Context, e *journal.Event) error {
	_, err := t.ExecContext(ctx, `INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,
occurred_at, payload_json, prev_hash, hash, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.WorkspaceID, e.EpochID, e.Sequence, e.ID, e.Protocol, e.Type, e.EntityID, e.Actor, e.OccurredAt,
		string(e.PayloadJSON), e.PrevHash, e.Hash, e.SessionID)
	if err != nil {
		return fmt.Errorf("insert %s event: %w", e.Type, err)
	}
	if _, err := t.ExecContext(ctx, "UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = ?",
		e.Sequence, e.Hash, e.WorkspaceID); err != nil {
		return fmt.Errorf("move journal head: %w", err)
	}
	return nil
}

// ListJournals lists every workspace's head, name and event count, in
// workspace id order.
func ListJournals(ctx context.Context, q Runner) ([]store.JournalSummary, error) {
	rows, err := q.QueryContext(ctx, `SELECT w.id, w.name, w.epoch_id, w.event_head_sequence, w.event_head_hash,
(SELECT count(*) FROM events e WHERE e.workspace_id = w.id) FROM workspaces w ORDER BY w.id`)
	if err != nil {
		return nil, fmt.Errorf("read workspaces: %w", err)
	}
	defer rows.Close()
	var out []store.JournalSummary
	for rows.Next() {
		var j store.JournalSummary
		if err := rows.Scan(&j.WorkspaceID, &j.Name, &j.EpochID, &j.Sequence, &j.Hash, &j.EventCount); err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read workspaces: %w", err)
	}
	return out, nil
}
