package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/sqlite"
)

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
	h, ok, err := sqlite.ReadHead(ctx, tx, workspaceID)
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

// VerifyJournal recomputes the full chain of one workspace from genesis,
// reading the head and every event from one snapshot.
func (s *Store) VerifyJournal(ctx context.Context, workspaceID string) (bool, error) {
	ok, found, err := s.db.VerifyChain(ctx, workspaceID)
	if err == nil && !found {
		return false, workspaceNotFound(workspaceID)
	}
	return ok, err
}

// atHead runs fn on one read connection holding one snapshot, with the
// workspace's head as of that snapshot; workspace_not_found when there is
// no such workspace.
func (s *Store) atHead(ctx context.Context, workspaceID string, fn func(conn *sql.Conn, h engine.Head) (bool, error)) (bool, error) {
	ok, found, err := s.db.AtHead(ctx, workspaceID, fn)
	if err == nil && !found {
		return false, workspaceNotFound(workspaceID)
	}
	return ok, err
}

func workspaceNotFound(id string) error {
	return collaberr.Newf("workspace_not_found", "Workspace '%s' was not found; open it or start a session first", id)
}
