package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
)

// ReadHead reads a workspace's journal head inside q's transaction.
func ReadHead(ctx context.Context, q Querier, workspaceID string) (engine.Head, bool, error) {
	h := engine.Head{WorkspaceID: workspaceID}
	err := q.QueryRowContext(ctx,
		"SELECT epoch_id, event_head_sequence, event_head_hash FROM workspaces WHERE id = ?", workspaceID).
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

// verifyWorkspace recomputes the whole chain of one workspace and checks
// that the stored head matches its last event.
func verifyWorkspace(ctx context.Context, q Querier, h engine.Head) (bool, error) {
	return VerifyWorkspaceQuery(ctx, q, h, "SELECT "+EventColumns+" FROM events WHERE workspace_id = ? ORDER BY sequence")
}

// VerifyWorkspaceQuery verifies the events query selects (in EventColumns
// order) against h.
func VerifyWorkspaceQuery(ctx context.Context, q Querier, h engine.Head, query string) (bool, error) {
	rows, err := q.QueryContext(ctx, query, h.WorkspaceID)
	if err != nil {
		return false, fmt.Errorf("read journal: %w", err)
	}
	defer rows.Close()
	v := journal.NewVerifier(0, journal.GenesisHash)
	var e journal.Event
	for rows.Next() {
		if err := ScanEvent(rows, &e); err != nil {
			return false, err
		}
		if !v.Next(&e) {
			return false, nil
		}
	}
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("read journal: %w", err)
	}
	seq, hash := v.Last()
	return seq == h.Sequence && hash == h.Hash, nil
}

// verifyAllJournals refuses a database any of whose journals fails
// verification.
func verifyAllJournals(ctx context.Context, q Querier) error {
	rows, err := q.QueryContext(ctx, "SELECT id, epoch_id, event_head_sequence, event_head_hash FROM workspaces ORDER BY id")
	if err != nil {
		return fmt.Errorf("read workspaces: %w", err)
	}
	var heads []engine.Head
	for rows.Next() {
		var h engine.Head
		if err := rows.Scan(&h.WorkspaceID, &h.EpochID, &h.Sequence, &h.Hash); err != nil {
			rows.Close()
			return err
		}
		heads = append(heads, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read workspaces: %w", err)
	}
	for _, h := range heads {
		ok, err := verifyWorkspace(ctx, q, h)
		if err != nil {
			return err
		}
		if !ok {
			return collaberr.New(collaberr.DatabaseJournalInvalid,
				"A workspace journal fails hash-chain verification; the file was changed outside collab").
				With("workspace_id", h.WorkspaceID)
		}
	}
	return nil
}

// VerifyChain recomputes the full chain of one workspace from genesis,
// reading the head and every event from one snapshot; found is false when
// there is no such workspace.
func (s *DB) VerifyChain(ctx context.Context, workspaceID string) (ok, found bool, err error) {
	return s.AtHead(ctx, workspaceID, func(conn *sql.Conn, h engine.Head) (bool, error) {
		return VerifyOnConn(ctx, conn, h)
	})
}

// AtHead runs fn on one read connection holding one snapshot, with the
// workspace's head as of that snapshot; found is false (and fn not run)
// when there is no such workspace.
func (s *DB) AtHead(ctx context.Context, workspaceID string, fn func(conn *sql.Conn, h engine.Head) (bool, error)) (ok, found bool, err error) {
	conn, err := s.read.Conn(ctx)
	if err != nil {
		return false, false, fmt.Errorf("open read connection: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return false, false, fmt.Errorf("begin read: %w", err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck // read-only snapshot
	h, found, err := ReadHead(ctx, conn, workspaceID)
	if err != nil || !found {
		return false, found, err
	}
	ok, err = fn(conn, h)
	return ok, true, err
}
