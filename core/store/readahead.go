package store

import (
	"context"

	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
)

// readAheadPoll tells an engine that can read ahead (ReadAheader)
// every read a session's poll makes once its journal head is known: the
// cursors' events, the pending offers (the sweep's, which also give the
// offers nextView shows), and what nextView shows. On a server they then
// cost one round trip instead of seven. Reading the head
// here changes nothing: checkCursors reads it next, and a missing
// workspace is left for it to refuse.
func (s *Store) readAheadPoll(ctx context.Context, tx Tx, sess CoordinationSession, known *journal.Anchor, limit int, now string) error {
	ahead, ok := tx.(ReadAheader)
	if !ok || !field.EventLimit.Spec().Admits(int64(limit)) {
		return nil
	}
	return s.recordPoll(ctx, tx, ahead, sess, known, limit, now)
}

// recordPoll is readAheadPoll's work, apart so that an engine that cannot
// read ahead pays nothing for the closure's captured variables.
func (s *Store) recordPoll(ctx context.Context, tx Tx, ahead ReadAheader, sess CoordinationSession,
	known *journal.Anchor, limit int, now string) error {
	if _, found, err := tx.Head(ctx, sess.WorkspaceID); err != nil || !found {
		return err
	}
	ws, err := readWorkspace(ctx, tx, sess.WorkspaceID)
	if err != nil {
		return err
	}
	v := viewer{session: &sess, actor: sess.Actor}
	ahead.ReadAhead(ctx, func(q Tx) {
		_ = checkCursors(ctx, q, sess, known)
		_, _ = pendingOf(ctx, q, sess.WorkspaceID, "")
		nextViewReads(ctx, q, ws, sess.Cursor.Sequence, limit, v, now)
	})
	return nil
}

// nextViewReads makes the reads nextView makes for a page after `after`,
// expecting the journal's sequences to be contiguous (so the page ends at
// after+limit or the head); their answers are not used. It names the
// page's reads itself, as readEventPage stops at the recorder's empty
// answer to its first.
func nextViewReads(ctx context.Context, q Tx, ws Workspace, after int64, limit int, v viewer, now string) {
	_, _ = q.Events(ctx, ws.ID, pageFrom(after, limit))
	_, _ = readHeadTasks(ctx, q, ws.ID, now)
	_, _ = reservations(ctx, q, ws.RepositoryKey, now)
	through := min(after+int64(limit), ws.EventHeadSequence)
	if through <= after {
		return
	}
	filter := ReportFilter{After: after, Through: through}
	if v.session != nil {
		filter.RoutedTo = v.session.ID
	}
	_, _ = queryReports(ctx, q, ws.ID, filter)
}

// readAheadAck tells an engine that can read ahead every read an
// acknowledgement makes before it writes: the session, the journal head
// and the anchor's event, all named by the call's arguments, so that on a
// server they cost one round trip. A refusal reads what it reads anyway.
func readAheadAck(ctx context.Context, tx Tx, cred Credential, workspaceID string, a journal.Anchor) {
	if ahead, ok := tx.(ReadAheader); ok {
		recordAck(ctx, ahead, cred, workspaceID, a)
	}
}

// recordAck is readAheadAck's work, apart as recordPoll is.
func recordAck(ctx context.Context, ahead ReadAheader, cred Credential, workspaceID string, a journal.Anchor) {
	ahead.ReadAhead(ctx, func(q Tx) {
		_, _, _ = q.Session(ctx, cred.SessionID)
		_, _, _ = q.Head(ctx, workspaceID)
		if a.Sequence > 0 {
			_, _ = q.Events(ctx, workspaceID, atSequence(a.Sequence))
		}
	})
}
