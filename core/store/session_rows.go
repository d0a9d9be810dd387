package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// The writes of a session's row, each a before/after pair for
// Sessions.UpdateSession: the rules decide the new values here, once.

// touchSession records that the session was seen at now.
func touchSession(ctx context.Context, tx Sessions, sess CoordinationSession, now string) error {
	after := sess
	after.LastSeenAt = now
	_, err := tx.UpdateSession(ctx, sess, after)
	return err
}

// advanceGeneration fences older holders of the session's credential: the
// generation moves on and the recovery flag is set as asked; ok is false
// when the session is no longer active at the generation it was read at.
func advanceGeneration(ctx context.Context, tx Sessions, sess CoordinationSession, recovery bool, now string) (bool, error) {
	after := sess
	after.Generation, after.LastSeenAt, after.CursorRecoveryRequired = sess.Generation+1, now, recovery
	return tx.UpdateSession(ctx, sess, after)
}

// endSession ends a session for good: a new generation and a replaced
// token hash, so that no credential works again.
func endSession(ctx context.Context, tx Sessions, sess CoordinationSession, tokenHash, now string) error {
	after := sess
	after.Status, after.EndedAt, after.LastSeenAt = SessionEnded, &now, now
	after.Generation, after.TokenHash = sess.Generation+1, tokenHash
	_, err := tx.UpdateSession(ctx, sess, after)
	return err
}

// movedCursor is sess with its cursor at to, one cursor version on, seen
// at now.
func movedCursor(sess CoordinationSession, to journal.Anchor, now string) CoordinationSession {
	after := sess
	after.Cursor, after.CursorVersion, after.LastSeenAt = to, sess.CursorVersion+1, now
	return after
}

// resetCursor records an audited reset and applies it: the cursor moves
// to r.To, the reset generation becomes r.Generation and the recovery flag
// clears.
func resetCursor(ctx context.Context, tx Sessions, sess CoordinationSession, r CursorReset) error {
	if err := tx.InsertCursorReset(ctx, r); err != nil {
		return err
	}
	after := movedCursor(sess, r.To, r.CreatedAt)
	after.ResetGeneration, after.CursorRecoveryRequired = r.Generation, false
	_, err := tx.UpdateSession(ctx, sess, after)
	return err
}
