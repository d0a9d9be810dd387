package store

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
)

// EventView is an event as tools return it. Events of the 0.1 protocol
// carry no session_id key at all, exactly as they were hashed.
type EventView struct {
	journal.Event
}

// MarshalJSON renders the event's fields in journal order with the payload
// as canonical JSON (unpaired surrogates escaped, never replaced).
func (v EventView) MarshalJSON() ([]byte, error) {
	e := &v.Event
	payload, err := canon.Canonicalize(e.PayloadJSON)
	if err != nil {
		payload = []byte("null")
	}
	var b bytes.Buffer
	b.WriteString(`{"protocol":`)
	b.Write(canon.AppendString(nil, e.Protocol))
	writeField(&b, "workspace_id", e.WorkspaceID)
	writeField(&b, "epoch_id", e.EpochID)
	fmt.Fprintf(&b, `,"sequence":%d`, e.Sequence)
	writeField(&b, "id", e.ID)
	writeField(&b, "type", e.Type)
	writeField(&b, "entity_id", e.EntityID)
	writeField(&b, "actor", e.Actor)
	writeField(&b, "occurred_at", e.OccurredAt)
	b.WriteString(`,"payload":`)
	b.Write(payload)
	writeField(&b, "prev_hash", e.PrevHash)
	writeField(&b, "hash", e.Hash)
	if e.Protocol != journal.ProtocolV1 {
		b.WriteString(`,"session_id":`)
		if e.SessionID == nil {
			b.WriteString("null")
		} else {
			b.Write(canon.AppendString(nil, *e.SessionID))
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func writeField(b *bytes.Buffer, key, value string) {
	b.WriteString(`,"` + key + `":`)
	b.Write(canon.AppendString(nil, value))
}

// JournalPage is one verified page of a workspace journal.
type JournalPage struct {
	Events            []EventView    `json:"events"`
	NextCursor        int64          `json:"next_cursor"`
	Cursor            journal.Anchor `json:"cursor"`
	NextAnchor        journal.Anchor `json:"next_anchor"`
	HeadSequence      int64          `json:"head_sequence"`
	HeadHash          string         `json:"head_hash"`
	HasMore           bool           `json:"has_more"`
	ChainValid        bool           `json:"chain_valid"`
	VerificationScope string         `json:"verification_scope"`
}

var _ json.Marshaler = EventView{}

// readEventPage reads up to limit events after sequence after and verifies
// them against their anchored predecessor.
func readEventPage(ctx context.Context, tx Tx, workspaceID string, after int64, limit int) (JournalPage, error) {
	var p JournalPage
	if after < 0 {
		return p, collaberr.New(collaberr.InvalidCursor, "The event cursor must be a whole number of zero or more")
	}
	if s := field.PageLimit.Spec(); !s.Admits(int64(limit)) {
		return p, collaberr.Newf(collaberr.InvalidLimit, "%s must be between %d and %d", s.Name, s.Min, s.Max)
	}
	h, ok, err := tx.Head(ctx, workspaceID)
	if err != nil {
		return p, err
	}
	if !ok {
		return p, workspaceNotFound(workspaceID)
	}
	if after > h.Sequence {
		return p, collaberr.New(collaberr.InvalidCursor, "The event cursor is ahead of the journal head").
			With("after_sequence", after).With("head_sequence", h.Sequence)
	}
	events, err := tx.Events(ctx, workspaceID, pageFrom(after, limit))
	if err != nil {
		return p, err
	}
	prevHash := journal.GenesisHash
	if after > 0 {
		if len(events) == 0 || events[0].Sequence != after {
			return p, collaberr.New(collaberr.CursorMismatch, "No event of this journal sits at that cursor").With("after_sequence", after)
		}
		prevHash, events = events[0].Hash, events[1:]
	}
	return buildPage(h, after, prevHash, events), nil
}

// pageFrom is the one read of the page after sequence after: past
// genesis it starts at the event at after itself, the cursor's event,
// whose hash the page chains from, so that a page costs one statement.
func pageFrom(after int64, limit int) EventRange {
	if after > 0 {
		return EventRange{After: after - 1, Limit: limit + 1}
	}
	return EventRange{Limit: limit}
}

// atSequence is the read of the event at sequence: the first one above
// sequence-1, which is that event when the journal holds it (sequences
// are contiguous).
func atSequence(sequence int64) EventRange {
	return EventRange{After: sequence - 1, Limit: 1}
}

// eventAt returns the event at sequence of a workspace's journal; found
// is false when the journal holds none there.
func eventAt(ctx context.Context, tx Events, workspaceID string, sequence int64) (e journal.Event, found bool, err error) {
	events, err := tx.Events(ctx, workspaceID, atSequence(sequence))
	if err != nil || len(events) == 0 || events[0].Sequence != sequence {
		return journal.Event{}, false, err
	}
	return events[0], true, nil
}

// buildPage assembles and verifies a page: an empty page is valid only at
// the head; otherwise every event must chain from the predecessor, and a
// page reaching the head must end on the head hash.
func buildPage(h JournalHead, after int64, prevHash string, events []journal.Event) JournalPage {
	p := JournalPage{
		Events:            make([]EventView, len(events)),
		Cursor:            journal.Anchor{EpochID: h.EpochID, Sequence: after, Hash: prevHash},
		HeadSequence:      h.Sequence,
		HeadHash:          h.Hash,
		VerificationScope: "returned_page",
	}
	p.NextAnchor = p.Cursor
	v := journal.NewVerifier(after, prevHash)
	for i := range events {
		p.Events[i] = EventView{events[i]}
		v.Next(&events[i])
		p.NextAnchor = journal.Anchor{EpochID: events[i].EpochID, Sequence: events[i].Sequence, Hash: events[i].Hash}
	}
	p.NextCursor = p.NextAnchor.Sequence
	p.HasMore = p.NextAnchor.Sequence < h.Sequence
	if len(events) == 0 {
		p.ChainValid = after == h.Sequence && prevHash == h.Hash
	} else {
		p.ChainValid = v.Valid() && (p.NextAnchor.Sequence != h.Sequence || p.NextAnchor.Hash == h.Hash)
	}
	return p
}

// validateAnchor checks that a caller's anchor names an event of this
// journal exactly: same epoch, a sequence at or below the head, and the
// stored hash (itself recomputed) at that sequence.
func validateAnchor(ctx context.Context, tx Tx, workspaceID string, a journal.Anchor) (JournalHead, error) {
	h, ok, err := tx.Head(ctx, workspaceID)
	if err != nil {
		return h, err
	}
	if !ok {
		return h, workspaceNotFound(workspaceID)
	}
	if a.EpochID != h.EpochID || a.Sequence < 0 {
		return h, collaberr.New(collaberr.CursorMismatch, "The anchor belongs to another journal or epoch")
	}
	if a.Sequence == 0 {
		if a.Hash != journal.GenesisHash {
			return h, collaberr.New(collaberr.CursorForkDetected, "A sequence-0 anchor must carry the genesis hash")
		}
		return h, nil
	}
	if a.Sequence > h.Sequence {
		return h, collaberr.New(collaberr.CursorAhead, "The anchor is ahead of the journal head").With("head_sequence", h.Sequence)
	}
	e, found, err := eventAt(ctx, tx, workspaceID, a.Sequence)
	if err != nil {
		return h, err
	}
	var hasher journal.Hasher
	if !found || e.EpochID != a.EpochID || e.Hash != a.Hash || !hasher.Matches(&e) {
		return h, collaberr.New(collaberr.CursorForkDetected, "The journal holds a different event at the anchor's sequence")
	}
	return h, nil
}

// EventsSince reads a verified page after a sequence number or after an
// exact anchor (never both).
func (s *Store) EventsSince(ctx context.Context, workspaceID string, afterSequence *int64, afterAnchor *journal.Anchor, limit int) (JournalPage, error) {
	var p JournalPage
	if afterSequence != nil && afterAnchor != nil {
		return p, collaberr.New(collaberr.AmbiguousCursor, "Give after_anchor or after_sequence, not both")
	}
	err := s.engine().Read(ctx, func(tx Tx) error {
		after := int64(0)
		if afterAnchor != nil {
			if _, err := validateAnchor(ctx, tx, workspaceID, *afterAnchor); err != nil {
				return err
			}
			after = afterAnchor.Sequence
		} else if afterSequence != nil {
			after = *afterSequence
		}
		var err error
		p, err = readEventPage(ctx, tx, workspaceID, after, limit)
		return err
	})
	return p, err
}

// EventHashAt returns the hash at sequence when that event forms a
// chain-valid one-event page (used by anchor status).
func (s *Store) EventHashAt(ctx context.Context, workspaceID string, sequence int64) (string, bool, error) {
	if sequence <= 0 {
		return "", false, nil
	}
	var hash string
	var ok bool
	err := s.engine().Read(ctx, func(tx Tx) error {
		p, err := readEventPage(ctx, tx, workspaceID, sequence-1, 1)
		if err != nil {
			if _, refused := collaberr.As(err); refused {
				return nil
			}
			return err
		}
		if p.ChainValid && len(p.Events) == 1 && p.Events[0].Sequence == sequence {
			hash, ok = p.Events[0].Hash, true
		}
		return nil
	})
	return hash, ok, err
}

// VerifyFull is VerifyJournal under the name the anchor check expects.
func (s *Store) VerifyFull(ctx context.Context, workspaceID string) (bool, error) {
	return s.VerifyJournal(ctx, workspaceID)
}
