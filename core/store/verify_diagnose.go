package store

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/sqlite"
)

// journalFault is where and how a journal first fails verification.
type journalFault struct {
	sequence int64
	problem  string
}

// diagnoseJournal re-reads a journal that failed verification and names
// the first sequence at which it goes wrong and what is wrong there. It is
// the slow path, run only for invalid chains.
func diagnoseJournal(ctx context.Context, q querier, h engine.Head, hasSession bool) (journalFault, error) {
	sessionColumn := "session_id"
	if !hasSession {
		sessionColumn = "NULL"
	}
	rows, err := q.QueryContext(ctx, "SELECT workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,"+
		" occurred_at, payload_json, prev_hash, hash, "+sessionColumn+" FROM events WHERE workspace_id = ? ORDER BY sequence",
		h.WorkspaceID)
	if err != nil {
		return journalFault{}, fmt.Errorf("read journal: %w", err)
	}
	defer rows.Close()
	lastSeq, lastHash := int64(0), journal.GenesisHash
	var hasher journal.Hasher
	for rows.Next() {
		var e journal.Event
		if err := sqlite.ScanEvent(rows, &e); err != nil {
			return journalFault{lastSeq + 1, "the event row cannot be read as an event: " + err.Error()}, nil
		}
		if fault, bad := eventFault(&hasher, &e, h.EpochID, lastSeq, lastHash); bad {
			return fault, nil
		}
		lastSeq, lastHash = e.Sequence, e.Hash
	}
	if err := rows.Err(); err != nil {
		return journalFault{}, fmt.Errorf("read journal: %w", err)
	}
	switch {
	case lastSeq != h.Sequence:
		return journalFault{min(lastSeq, h.Sequence) + 1,
			fmt.Sprintf("the workspace engine.Head names sequence %d but the journal ends at %d", h.Sequence, lastSeq)}, nil
	case lastHash != h.Hash:
		return journalFault{lastSeq, "the workspace engine.Head hash is not the hash of the last event"}, nil
	}
	return journalFault{}, nil
}

// eventFault checks one event against its predecessor.
func eventFault(hasher *journal.Hasher, e *journal.Event, epoch string, lastSeq int64, lastHash string) (journalFault, bool) {
	want := lastSeq + 1
	switch {
	case e.Sequence > want:
		return journalFault{want, fmt.Sprintf("event %d is missing (the next stored event is %d)", want, e.Sequence)}, true
	case e.Sequence < want:
		return journalFault{e.Sequence, fmt.Sprintf("event %d appears twice", e.Sequence)}, true
	case e.EpochID != epoch:
		return journalFault{want, "the event belongs to another epoch than its workspace"}, true
	case e.PrevHash != lastHash:
		return journalFault{want, fmt.Sprintf("prev_hash is not the hash of event %d", lastSeq)}, true
	case !hasher.Matches(e):
		return journalFault{want, "the stored hash does not match the event's content (the event was altered)"}, true
	}
	return journalFault{}, false
}
