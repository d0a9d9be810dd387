package store

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
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
func (s *Store) appendEvent(ctx context.Context, tx Journal, workspaceID string, ne newEvent) (journal.Event, error) {
	h, ok, err := tx.Head(ctx, workspaceID)
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
	if err := tx.Append(ctx, &e); err != nil {
		return journal.Event{}, err
	}
	s.recordIndependence(ctx, tx, e)
	return e, nil
}

// VerifyJournal recomputes the full chain of one workspace from genesis,
// reading the head and every event from one snapshot: VerifyWithProgress
// reporting no progress, so that the engine may offer the journal in
// ranges read at the same time.
func (s *Store) VerifyJournal(ctx context.Context, workspaceID string) (bool, error) {
	return s.VerifyWithProgress(ctx, workspaceID, nil)
}

func workspaceNotFound(id string) error {
	return collaberr.Newf(collaberr.WorkspaceNotFound, "Workspace '%s' was not found; open it or start a session first", id)
}
