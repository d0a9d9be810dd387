package store

import (
	"context"
	"slices"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/normalize"
)

// The paths through which a recipient's side announces what is addressed
// to it. Each records its announcements with RecordAnnouncement.
const (
	ChannelHook    = "hook"    // peek --hook (Claude Code, Codex hooks)
	ChannelMonitor = "monitor" // watch (Claude Code monitors)
	ChannelPush    = "channel" // the claude/channel notification
	ChannelWait    = "wait"    // collab_wait's wake
	ChannelTmux    = "tmux"    // push into a terminal pane
)

// DeliveryChannels lists every announcement channel, in display order.
var DeliveryChannels = []string{ChannelHook, ChannelMonitor, ChannelPush, ChannelWait, ChannelTmux}

// The recipient's marks on what was addressed to it.
const (
	MarkHandled  = "handled"
	MarkDeclined = "declined"
)

// Subject kinds: what a delivery receipt is about.
const (
	SubjectReport  = "report"
	SubjectHandoff = "handoff"
)

// Subject names one report or handoff.
type Subject struct {
	Kind string `json:"subject_kind"`
	ID   string `json:"id"`
}

// RecordAnnouncement records, for the session of cred, that the given
// reports and handoffs addressed to it were announced to it through
// channel. It appends no event, moves no cursor and touches no session
// row: announcing is not reading. Announcing again through the same
// channel keeps the first record (the answer counts only new ones). Every
// subject must be addressed to the session; otherwise, or when the
// credential is not valid or the channel unknown, nothing is written.
func (s *Store) RecordAnnouncement(ctx context.Context, cred Credential, channel string, subjects []Subject) (int, error) {
	if !slices.Contains(DeliveryChannels, channel) {
		return 0, collaberr.New(collaberr.InvalidDeliveryChannel,
			"The announcement channel must be one of hook, monitor, channel, wait or tmux")
	}
	if err := checkSubjects(subjects); err != nil {
		return 0, err
	}
	if len(subjects) == 0 {
		return 0, nil
	}
	recorded := 0
	err := s.writeTx(ctx, func(tx Tx) error {
		recorded = 0
		sess, err := authenticate(ctx, tx, cred, true)
		if err != nil {
			return err
		}
		now := s.nowISO()
		for _, sub := range subjects {
			if _, err := addressedTo(ctx, tx, sess, sub); err != nil {
				return err
			}
			ok, err := tx.InsertDelivery(ctx, Delivery{WorkspaceID: sess.WorkspaceID, SessionID: sess.ID,
				SubjectKind: sub.Kind, SubjectID: sub.ID, Kind: "announced", Channel: channel, RecordedAt: now})
			if err != nil {
				return err
			}
			if ok {
				recorded++
			}
		}
		return nil
	})
	return recorded, err
}

// DeliveryMark is a recipient's mark on one subject, as stored.
type DeliveryMark struct {
	Subject
	State      string  `json:"state"`
	Note       *string `json:"note"`
	RecordedAt string  `json:"recorded_at"`
	// Replayed is true when the same mark was already stored, so this
	// call changed nothing.
	Replayed bool `json:"replayed"`
}

// MarkDelivery records that the session of cred handled or declined a
// report or handoff addressed to it, with an optional note. A mark is
// final: the same mark again replays the stored one, the other mark is
// refused with delivery_mark_conflict. It appends no event and moves no
// cursor. A refusal writes nothing.
func (s *Store) MarkDelivery(ctx context.Context, cred Credential, sub Subject, state string, note *string) (DeliveryMark, error) {
	if state != MarkHandled && state != MarkDeclined {
		return DeliveryMark{}, collaberr.New(collaberr.InvalidDeliveryMark, "A mark is handled or declined")
	}
	if err := checkSubjects([]Subject{sub}); err != nil {
		return DeliveryMark{}, err
	}
	if note != nil {
		clean, err := normalize.Text(*note, field.MarkNote)
		if err != nil {
			return DeliveryMark{}, err
		}
		note = &clean
	}
	var out DeliveryMark
	err := s.writeTx(ctx, func(tx Tx) error {
		sess, err := authenticate(ctx, tx, cred, true)
		if err != nil {
			return err
		}
		if _, err := addressedTo(ctx, tx, sess, sub); err != nil {
			return err
		}
		out = DeliveryMark{Subject: sub, State: state, Note: note, RecordedAt: s.nowISO()}
		ok, err := tx.InsertDelivery(ctx, Delivery{WorkspaceID: sess.WorkspaceID, SessionID: sess.ID,
			SubjectKind: sub.Kind, SubjectID: sub.ID, Kind: state, Note: note, RecordedAt: out.RecordedAt})
		if err != nil || ok {
			return err
		}
		prior, err := storedMark(ctx, tx, sess, sub)
		if err != nil {
			return err
		}
		if prior.State != state {
			return collaberr.Newf(collaberr.DeliveryMarkConflict, "This %s is already marked %s", sub.Kind, prior.State).
				With("state", prior.State).With("recorded_at", prior.RecordedAt)
		}
		out = prior
		out.Replayed = true
		return nil
	})
	return out, err
}

// storedMark reads the recipient's mark on sub.
func storedMark(ctx context.Context, tx Tx, sess CoordinationSession, sub Subject) (DeliveryMark, error) {
	all, err := tx.DeliveriesOf(ctx, sess.WorkspaceID, sub.Kind, []string{sub.ID})
	if err != nil {
		return DeliveryMark{}, err
	}
	for _, d := range all {
		if d.SessionID == sess.ID && d.Kind != "announced" {
			return DeliveryMark{Subject: sub, State: d.Kind, Note: d.Note, RecordedAt: d.RecordedAt}, nil
		}
	}
	return DeliveryMark{}, collaberr.New(collaberr.DeliveryMarkConflict, "Another mark on this subject is being recorded; read its receipts")
}

// checkSubjects refuses a subject of unknown kind or with a malformed id.
func checkSubjects(subjects []Subject) error {
	for _, sub := range subjects {
		if sub.Kind != SubjectReport && sub.Kind != SubjectHandoff {
			return collaberr.New(collaberr.InvalidDeliveryMark, "A receipt is about a report or a handoff")
		}
		if !field.IsID(sub.ID) {
			return collaberr.Newf(collaberr.InvalidDeliveryMark, "The %s id is not a valid id", sub.Kind)
		}
	}
	return nil
}

// addressedTo checks that sub exists in the session's workspace and is
// addressed to the session, and returns the journal sequence that
// delivered it.
func addressedTo(ctx context.Context, tx Tx, sess CoordinationSession, sub Subject) (int64, error) {
	to, seq, found, err := subjectFacts(ctx, tx, sess.WorkspaceID, sub)
	if err != nil {
		return 0, err
	}
	if !found || to == nil || *to != sess.ID {
		return 0, notAddressed(sub)
	}
	return seq, nil
}

// notAddressed refuses a subject that does not exist or is addressed to
// another session; the two look alike, so a refusal tells nothing about
// other sessions' mail.
func notAddressed(sub Subject) error {
	return collaberr.Newf(collaberr.DeliveryNotAddressed, "No %s %s is addressed to this session", sub.Kind, sub.ID).
		With("subject_kind", sub.Kind).With("id", sub.ID)
}

// subjectFacts reads who a subject is addressed to and the sequence of
// the event that delivered it.
func subjectFacts(ctx context.Context, tx Tx, workspaceID string, sub Subject) (*string, int64, bool, error) {
	if sub.Kind == SubjectReport {
		r, found, err := tx.Report(ctx, sub.ID)
		if err != nil || !found || r.WorkspaceID != workspaceID {
			return nil, 0, false, err
		}
		return r.ToSessionID, r.EventSequence, true, nil
	}
	h, found, err := tx.Handoff(ctx, sub.ID)
	if err != nil || !found || h.WorkspaceID != workspaceID {
		return nil, 0, false, err
	}
	seq, _, err := tx.OfferSequence(ctx, workspaceID, sub.ID)
	if err != nil {
		return nil, 0, false, err
	}
	return h.ToSessionID, seq, true, nil
}
