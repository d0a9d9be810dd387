package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
)

// head is a workspace's journal position, read inside a transaction.
type head struct {
	WorkspaceID string
	EpochID     string
	Sequence    int64
	Hash        string
}

func readHead(ctx context.Context, q querier, workspaceID string) (head, bool, error) {
	h := head{WorkspaceID: workspaceID}
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

// newEvent describes one event to append.
type newEvent struct {
	Type      journal.Kind
	EntityID  string
	Actor     string
	SessionID *string
	Payload   any
}

// appendEvent writes one event at the head of the workspace's journal and
// moves the head, inside the caller's write transaction. The stored
// payload is canonical JSON, so the stored text is exactly what is hashed.
func (s *Store) appendEvent(ctx context.Context, tx querier, workspaceID string, ne newEvent) (journal.Event, error) {
	h, ok, err := readHead(ctx, tx, workspaceID)
	if err != nil {
		return journal.Event{}, err
	}
	if !ok {
		return journal.Event{}, workspaceNotFound(workspaceID)
	}
	payload, err := canon.Marshal(ne.Payload)
	if err != nil {
		return journal.Event{}, fmt.Errorf("encode %s payload: %w", ne.Type, err)
	}
	e := journal.Event{
		WorkspaceID: workspaceID, EpochID: h.EpochID, Sequence: h.Sequence + 1,
		ID: "event_" + newUUID(), Protocol: journal.ProtocolV2, Type: string(ne.Type), EntityID: ne.EntityID,
		Actor: ne.Actor, OccurredAt: s.nowISO(), PayloadJSON: payload, PrevHash: h.Hash, SessionID: ne.SessionID,
	}
	var hasher journal.Hasher
	if e.Hash, err = hasher.Hash(&e); err != nil {
		return journal.Event{}, fmt.Errorf("hash %s event: %w", ne.Type, err)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,
occurred_at, payload_json, prev_hash, hash, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.WorkspaceID, e.EpochID, e.Sequence, e.ID, e.Protocol, e.Type, e.EntityID, e.Actor, e.OccurredAt,
		string(e.PayloadJSON), e.PrevHash, e.Hash, e.SessionID)
	if err != nil {
		return journal.Event{}, fmt.Errorf("insert %s event: %w", ne.Type, err)
	}
	if _, err := tx.ExecContext(ctx, "UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = ?",
		e.Sequence, e.Hash, workspaceID); err != nil {
		return journal.Event{}, fmt.Errorf("move journal head: %w", err)
	}
	return e, nil
}

// eventColumns is the column list every event query selects, in scan order.
const eventColumns = "workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor, occurred_at, payload_json, prev_hash, hash, session_id"

// scanEvent reads one row selected with eventColumns.
func scanEvent(rows *sql.Rows, e *journal.Event) error {
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
func verifyWorkspace(ctx context.Context, q querier, h head) (bool, error) {
	return verifyWorkspaceQuery(ctx, q, h, "SELECT "+eventColumns+" FROM events WHERE workspace_id = ? ORDER BY sequence")
}

// verifyWorkspaceQuery verifies the events query selects (in eventColumns
// order) against h.
func verifyWorkspaceQuery(ctx context.Context, q querier, h head, query string) (bool, error) {
	rows, err := q.QueryContext(ctx, query, h.WorkspaceID)
	if err != nil {
		return false, fmt.Errorf("read journal: %w", err)
	}
	defer rows.Close()
	v := journal.NewVerifier(0, journal.GenesisHash)
	var e journal.Event
	for rows.Next() {
		if err := scanEvent(rows, &e); err != nil {
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
func verifyAllJournals(ctx context.Context, q querier) error {
	rows, err := q.QueryContext(ctx, "SELECT id, epoch_id, event_head_sequence, event_head_hash FROM workspaces ORDER BY id")
	if err != nil {
		return fmt.Errorf("read workspaces: %w", err)
	}
	var heads []head
	for rows.Next() {
		var h head
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
			return collaberr.New("database_journal_invalid",
				"A workspace journal fails hash-chain verification; the file was changed outside collab").
				With("workspace_id", h.WorkspaceID)
		}
	}
	return nil
}

// VerifyJournal recomputes the full chain of one workspace from genesis,
// reading the head and every event from one snapshot.
func (s *Store) VerifyJournal(ctx context.Context, workspaceID string) (bool, error) {
	return s.atHead(ctx, workspaceID, func(conn *sql.Conn, h head) (bool, error) {
		return verifyOnConn(ctx, conn, h)
	})
}

// atHead runs fn on one read connection holding one snapshot, with the
// workspace's head as of that snapshot; workspace_not_found when there is
// no such workspace.
func (s *Store) atHead(ctx context.Context, workspaceID string, fn func(conn *sql.Conn, h head) (bool, error)) (bool, error) {
	conn, err := s.read.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("open read connection: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return false, fmt.Errorf("begin read: %w", err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck // read-only snapshot
	h, found, err := readHead(ctx, conn, workspaceID)
	if err != nil {
		return false, err
	}
	if !found {
		return false, workspaceNotFound(workspaceID)
	}
	return fn(conn, h)
}

func workspaceNotFound(id string) error {
	return collaberr.Newf("workspace_not_found", "Workspace '%s' was not found; open it or start a session first", id)
}
