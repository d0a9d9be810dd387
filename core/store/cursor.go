package store

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// AckCursor moves the session's cursor forward to an exact anchor of its
// journal. Re-acknowledging the current anchor is a no-op; moving backwards
// or onto a different hash is refused. It appends no event.
func (s *Store) AckCursor(ctx context.Context, cred Credential, workspaceID string, a journal.Anchor, expectedVersion int64) (CoordinationSession, error) {
	var out CoordinationSession
	err := s.writeTx(ctx, func(tx Tx) error {
		readAheadAck(ctx, tx, cred, workspaceID, a)
		sess, err := authenticate(ctx, tx, cred, false)
		if err != nil {
			return err
		}
		if _, err := validateAnchor(ctx, tx, workspaceID, a); err != nil {
			return err
		}
		cur := sess.Cursor
		switch {
		case a.EpochID != cur.EpochID:
			return collaberr.New(collaberr.CursorEpochMismatch, "The anchor belongs to another journal epoch than the session cursor")
		case a.Sequence < cur.Sequence:
			return collaberr.New(collaberr.CursorRegression, "A session cursor only moves forward; use collab_cursor_reset to go back").
				With("current_sequence", cur.Sequence)
		case a.Sequence == cur.Sequence:
			if a.Hash != cur.Hash {
				return collaberr.New(collaberr.CursorForkDetected, "The journal now holds a different event at the session cursor")
			}
			out = sess
			return nil
		case sess.CursorVersion != expectedVersion:
			return collaberr.New(collaberr.CursorVersionConflict, "The session cursor moved since you read it; poll again").
				With("expected_cursor_version", expectedVersion).With("current_cursor_version", sess.CursorVersion)
		}
		now := s.nowISO()
		// The row then holds exactly moved; reading it back would cost a
		// statement (a round trip on PostgreSQL).
		moved := movedCursor(sess, a, now)
		if _, err := tx.UpdateSession(ctx, sess, moved); err != nil {
			return err
		}
		out = moved
		return nil
	})
	return out, err
}

// ResetCursorInput is an audited cursor reset.
type ResetCursorInput struct {
	WorkspaceID     string
	IdempotencyKey  string
	Target          journal.Anchor
	ExpectedVersion int64
	Reason          string
}

// ResetCursor moves the session cursor to any exact valid anchor,
// backwards included, records who did it and why, and clears a pending
// cursor recovery. It returns the session as it is now, also on a replay.
func (s *Store) ResetCursor(ctx context.Context, cred Credential, in ResetCursorInput) (CoordinationSession, error) {
	reason, err := normalize.Text(in.Reason, field.ResetReason)
	if err != nil {
		return CoordinationSession{}, err
	}
	target := map[string]any{"epoch_id": in.Target.EpochID, "sequence": in.Target.Sequence, "hash": in.Target.Hash}
	_, err = mutateAsSession(ctx, s, sessionMutation[cursorAnswer]{
		cred: cred, operation: "cursor.reset.v2", key: in.IdempotencyKey, allowRecovery: true,
		request: map[string]any{"expected_cursor_version": in.ExpectedVersion, "target": target, "reason": reason},
		apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*cursorAnswer, error) {
			return s.applyReset(ctx, tx, sess, in, reason)
		},
	})
	if err != nil {
		return CoordinationSession{}, err
	}
	sess, err := s.Session(ctx, cred.SessionID)
	if err != nil {
		return sess, err
	}
	if sess.CursorRecoveryRequired {
		return sess, collaberr.New(collaberr.CursorResetReceiptStale,
			"That idempotency key answered an earlier reset; the session is still in recovery, so reset again with a new key").
			With("persisted_cursor", sess.Cursor).With("expected_cursor_version", sess.CursorVersion)
	}
	return sess, nil
}

func (s *Store) applyReset(ctx context.Context, tx Tx, sess CoordinationSession, in ResetCursorInput, reason string) (*cursorAnswer, error) {
	if sess.CursorVersion != in.ExpectedVersion {
		return nil, collaberr.New(collaberr.CursorVersionConflict, "The session cursor moved since you read it; read the session again")
	}
	if _, err := validateAnchor(ctx, tx, in.WorkspaceID, in.Target); err != nil {
		return nil, err
	}
	now := s.nowISO()
	resetID := "cursor_reset_" + newUUID()
	gen := sess.ResetGeneration + 1
	from := sess.Cursor
	if err := resetCursor(ctx, tx, sess, CursorReset{ID: resetID, SessionID: sess.ID, From: from, To: in.Target,
		Reason: reason, Generation: gen, CreatedAt: now}); err != nil {
		return nil, err
	}
	if _, err := s.appendEvent(ctx, tx, sess.WorkspaceID, newEvent{
		Type: journal.KindSessionCursorReset, EntityID: resetID, Actor: sess.Actor, SessionID: &sess.ID,
		Payload: map[string]any{"from": anchorMap(from), "to": anchorMap(in.Target), "reason": reason, "reset_generation": gen},
	}); err != nil {
		return nil, err
	}
	updated, _, err := findSession(ctx, tx, sess.ID)
	return &cursorAnswer{Session: updated}, err
}

func anchorMap(a journal.Anchor) map[string]any {
	return map[string]any{"epoch_id": a.EpochID, "sequence": a.Sequence, "hash": a.Hash}
}
