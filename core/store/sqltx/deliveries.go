package sqltx

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/store"
)

// DeliveriesTable is the table that holds delivery facts (store.Delivery).
// The reference ignores tables it does not know, so a file holding one
// still opens, verifies and continues there.
const DeliveriesTable = "delivery_receipts"

// DeliveriesDDL creates the delivery table and its indexes when they are
// missing. Marks (handled, declined) are unique per recipient and
// subject; every fact is unique per recipient, subject, kind and channel.
var DeliveriesDDL = []string{
	`CREATE TABLE IF NOT EXISTS delivery_receipts (
  workspace_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  subject_kind TEXT NOT NULL CHECK (subject_kind IN ('report', 'handoff')),
  subject_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('announced', 'handled', 'declined')),
  channel TEXT NOT NULL,
  note TEXT,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (workspace_id, session_id, subject_kind, subject_id, kind, channel)
)`,
	`CREATE UNIQUE INDEX IF NOT EXISTS delivery_receipts_mark_idx
  ON delivery_receipts(workspace_id, session_id, subject_kind, subject_id) WHERE kind <> 'announced'`,
	`CREATE INDEX IF NOT EXISTS delivery_receipts_subject_idx
  ON delivery_receipts(workspace_id, subject_kind, subject_id)`,
}

// InsertDelivery stores d unless it is already there (see
// store.Deliveries). On an engine whose table is created on first use
// (Syntax.DeliveriesExist), the table is created inside this transaction.
func (t *Tx) InsertDelivery(ctx context.Context, d store.Delivery) (bool, error) {
	if err := t.ensureDeliveries(ctx); err != nil {
		return false, err
	}
	res, err := t.ExecContext(ctx, `INSERT INTO delivery_receipts (workspace_id, session_id, subject_kind, subject_id,
kind, channel, note, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		d.WorkspaceID, d.SessionID, d.SubjectKind, d.SubjectID, d.Kind, d.Channel, d.Note, d.RecordedAt)
	if err != nil {
		return false, fmt.Errorf("record delivery: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("record delivery: %w", err)
	}
	return n == 1, nil
}

// DeliveriesOf returns the delivery facts about the given subjects.
func (t *Tx) DeliveriesOf(ctx context.Context, workspaceID, subjectKind string, subjectIDs []string) ([]store.Delivery, error) {
	out := []store.Delivery{}
	if len(subjectIDs) == 0 {
		return out, nil
	}
	exists, err := t.deliveriesExist(ctx)
	if err != nil || !exists {
		return out, err
	}
	args := []any{workspaceID, subjectKind}
	for _, id := range subjectIDs {
		args = append(args, id)
	}
	rows, err := t.QueryContext(ctx, `SELECT workspace_id, session_id, subject_kind, subject_id, kind, channel, note,
recorded_at FROM delivery_receipts WHERE workspace_id = ? AND subject_kind = ? AND subject_id IN (`+
		strings.TrimSuffix(strings.Repeat("?, ", len(subjectIDs)), ", ")+`)
ORDER BY subject_id, recorded_at, kind, channel`, args...)
	if err != nil {
		return nil, fmt.Errorf("read deliveries: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var d store.Delivery
		if err := rows.Scan(&d.WorkspaceID, &d.SessionID, &d.SubjectKind, &d.SubjectID, &d.Kind, &d.Channel, &d.Note,
			&d.RecordedAt); err != nil {
			return nil, fmt.Errorf("read deliveries: %w", err)
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read deliveries: %w", err)
	}
	return out, nil
}

// OfferSequence finds the handoff.offered event of a handoff.
func (t *Tx) OfferSequence(ctx context.Context, workspaceID, handoffID string) (int64, bool, error) {
	rows, err := t.QueryContext(ctx, `SELECT sequence FROM events WHERE workspace_id = ? AND type = 'handoff.offered'
AND entity_id = ? ORDER BY sequence LIMIT 1`, workspaceID, handoffID)
	if err != nil {
		return 0, false, fmt.Errorf("find the offer of handoff %s: %w", handoffID, err)
	}
	defer rows.Close()
	var seq int64
	found := rows.Next()
	if found {
		if err := rows.Scan(&seq); err != nil {
			return 0, false, fmt.Errorf("find the offer of handoff %s: %w", handoffID, err)
		}
	}
	return seq, found, rows.Err()
}

// deliveriesExist reports whether the delivery table is there: always on
// an engine that creates it with its schema, else as the dialect's
// query says.
func (t *Tx) deliveriesExist(ctx context.Context) (bool, error) {
	if t.d.deliveriesExist == "" {
		return true, nil
	}
	var n int64
	if err := t.QueryRowContext(ctx, t.d.deliveriesExist).Scan(&n); err != nil {
		return false, fmt.Errorf("look for the delivery table: %w", err)
	}
	return n > 0, nil
}

// ensureDeliveries creates the delivery table when the engine makes it on
// first use and it is missing, so a file gains the table only once a
// delivery is recorded.
func (t *Tx) ensureDeliveries(ctx context.Context) error {
	exists, err := t.deliveriesExist(ctx)
	if err != nil || exists {
		return err
	}
	for _, ddl := range DeliveriesDDL {
		if _, err := t.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("create the delivery table: %w", err)
		}
	}
	return nil
}
