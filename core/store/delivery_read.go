package store

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
)

// Announcement is one channel through which a subject was announced to
// its recipient, with the time it was first recorded.
type Announcement struct {
	Channel    string `json:"channel"`
	RecordedAt string `json:"recorded_at"`
}

// DeliveryReceipts is what the journal knows about the delivery of one
// report or handoff: to whom it is addressed, through which channels it
// was announced, whether the recipient's acknowledged cursor has passed
// it (derived now from the cursor, never stored) and the recipient's
// mark, if any. A subject addressed to no session has no receipts.
type DeliveryReceipts struct {
	Subject
	ToSessionID *string        `json:"to_session_id"`
	Sequence    int64          `json:"sequence"`
	Announced   []Announcement `json:"announced"`
	// Read is true when the recipient's persisted cursor is at or past
	// Sequence; RecipientCursor is that cursor's sequence (0 without a
	// recipient).
	Read            bool          `json:"read"`
	RecipientCursor int64         `json:"recipient_cursor"`
	Mark            *DeliveryMark `json:"mark"`
}

// DeliveryReceiptsOf reads, in one snapshot, the receipts of each subject
// of the workspace, in the order given. A subject that does not exist in
// the workspace is refused (delivery_not_addressed); nothing is written,
// so a read-only store serves it.
func (s *Store) DeliveryReceiptsOf(ctx context.Context, workspaceID string, subjects []Subject) ([]DeliveryReceipts, error) {
	if err := checkSubjects(subjects); err != nil {
		return nil, err
	}
	out := make([]DeliveryReceipts, 0, len(subjects))
	err := s.readTx(ctx, func(tx Tx) error {
		out = out[:0]
		for _, sub := range subjects {
			r, err := receiptsOf(ctx, tx, workspaceID, sub)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// receiptsOf gathers one subject's receipts inside tx.
func receiptsOf(ctx context.Context, tx Tx, workspaceID string, sub Subject) (DeliveryReceipts, error) {
	to, seq, found, err := subjectFacts(ctx, tx, workspaceID, sub)
	if err != nil {
		return DeliveryReceipts{}, err
	}
	if !found {
		return DeliveryReceipts{}, subjectNotFound(sub)
	}
	out := DeliveryReceipts{Subject: sub, ToSessionID: to, Sequence: seq, Announced: []Announcement{}}
	if to == nil {
		return out, nil
	}
	if sess, ok, err := tx.Session(ctx, *to); err != nil {
		return out, err
	} else if ok {
		out.RecipientCursor = sess.Cursor.Sequence
		out.Read = seq > 0 && sess.Cursor.Sequence >= seq
	}
	all, err := tx.DeliveriesOf(ctx, workspaceID, sub.Kind, []string{sub.ID})
	if err != nil {
		return out, err
	}
	for _, d := range all {
		// Only the recipient's own side records receipts; a row of any
		// other session is not a receipt of this delivery.
		if d.SessionID != *to {
			continue
		}
		if d.Kind == "announced" {
			out.Announced = append(out.Announced, Announcement{Channel: d.Channel, RecordedAt: d.RecordedAt})
			continue
		}
		out.Mark = &DeliveryMark{Subject: sub, State: d.Kind, Note: d.Note, RecordedAt: d.RecordedAt}
	}
	return out, nil
}

// PendingAnnouncements returns the subjects not yet recorded as announced
// to sessionID through channel, in the order given. It only reads, so a
// read-only opener (peek, watch) can tell whether it has anything to
// record before it opens the database for writing.
func (s *Store) PendingAnnouncements(ctx context.Context, workspaceID, sessionID, channel string, subjects []Subject) ([]Subject, error) {
	var out []Subject
	err := s.readTx(ctx, func(tx Tx) error {
		out = out[:0]
		for _, sub := range subjects {
			all, err := tx.DeliveriesOf(ctx, workspaceID, sub.Kind, []string{sub.ID})
			if err != nil {
				return err
			}
			if !announcedThrough(all, sessionID, channel) {
				out = append(out, sub)
			}
		}
		return nil
	})
	return out, err
}

func announcedThrough(all []Delivery, sessionID, channel string) bool {
	for _, d := range all {
		if d.SessionID == sessionID && d.Kind == "announced" && d.Channel == channel {
			return true
		}
	}
	return false
}

// subjectNotFound refuses a subject the workspace does not hold.
func subjectNotFound(sub Subject) error {
	code := collaberr.ReportNotFound
	if sub.Kind == SubjectHandoff {
		code = collaberr.HandoffNotFound
	}
	return collaberr.Newf(code, "No %s %s in this workspace", sub.Kind, sub.ID).With("id", sub.ID)
}

// SentAddressed lists, newest first, up to limit reports of the
// workspace that the session sessionID wrote and addressed to a session:
// the ones whose delivery their sender may want to follow. Only the
// newest sentScan reports are looked at.
func (s *Store) SentAddressed(ctx context.Context, workspaceID, sessionID string, limit int) ([]Subject, error) {
	out := []Subject{}
	err := s.readTx(ctx, func(tx Tx) error {
		out = out[:0]
		reports, err := queryReports(ctx, tx, workspaceID, ReportFilter{NewestFirst: true, Limit: sentScan})
		if err != nil {
			return err
		}
		for _, r := range reports {
			if len(out) < limit && r.ToSessionID != nil && r.FromSessionID != nil && *r.FromSessionID == sessionID {
				out = append(out, Subject{Kind: SubjectReport, ID: r.ID})
			}
		}
		return nil
	})
	return out, err
}

// sentScan bounds how many recent reports SentAddressed reads.
const sentScan = 1000
