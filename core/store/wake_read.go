package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/sqlite"
)

// WakeTypes are the event types that can concern one particular session or
// actor: offers and answers about handoffs, reports, reviews and the loss
// of a claim. Every other event type only ever counts as unread.
var WakeTypes = []journal.Kind{
	journal.KindHandoffOffered, journal.KindHandoffAccepted, journal.KindHandoffDeclined, journal.KindHandoffExpired,
	journal.KindReportPosted, journal.KindTaskChangesRequested, journal.KindTaskAccepted, journal.KindTaskRecovered, journal.KindTaskClaimExpired,
}

// WakeWindow is how many of the newest unread events a wake snapshot
// inspects. A session further behind than that still learns of every
// pending handoff offered to it (read from the handoffs table), and its
// unread count stays exact; only older answers, reports and reviews go
// unmentioned until it catches up with collab_next.
const WakeWindow = 2000

// WakeOffer is a pending handoff offered to the viewer.
type WakeOffer struct {
	ID, TaskID, FromActor, Summary, ExpiresAt string
}

// WakeTask is a task that belongs to the viewer: it holds the claim or it
// reported the task complete.
type WakeTask struct {
	ID             string
	Title          string
	Status         string
	LeaseExpiresAt *string
}

// WakeSnapshot is everything a wake check needs, read in one snapshot
// without writing: the viewer, the journal head, the viewer's persisted
// cursor, the candidate events after a position and the viewer's tasks.
type WakeSnapshot struct {
	WorkspaceID string
	// SessionID is empty for a legacy actor.
	SessionID string
	Actor     string
	// Active is false once the session has ended.
	Active bool
	Head   journal.Anchor
	// After is the sequence the candidate events follow: the persisted
	// cursor for a session (0 when the cursor names another epoch), or
	// the position the caller gave.
	After int64
	// Candidates are the events after After (and among the newest
	// WakeWindow) whose type is in WakeTypes, oldest first, at most the
	// limit asked for.
	Candidates []journal.Event
	// Windowed is true when unread events older than the window were not
	// inspected.
	Windowed bool
	// PendingOffers are every pending handoff addressed to the viewer,
	// however old.
	PendingOffers []WakeOffer
	Tasks         []WakeTask
	// OwnOffers are the ids of handoffs the viewer offered.
	OwnOffers []string
}

// WakeForSession reads a wake snapshot for the session of cred, from its
// persisted cursor, or from after when after is not nil. It never writes: the cursor, last_seen_at and pending
// handoffs are left exactly as they are, so it works on a read-only store.
// An ended session is still described (Active false) when the token
// matches, so a watcher can notice the end.
func (s *Store) WakeForSession(ctx context.Context, cred Credential, after *int64, limit int) (WakeSnapshot, error) {
	var out WakeSnapshot
	err := s.readTx(ctx, func(tx *Tx) error {
		sess, found, err := findSession(ctx, tx, cred.SessionID)
		if err != nil {
			return err
		}
		if !found || !credfile.TokenMatches(sess.TokenHash, cred.Token) || sess.Generation != cred.Generation {
			return authFailed()
		}
		out = WakeSnapshot{WorkspaceID: sess.WorkspaceID, SessionID: sess.ID, Actor: sess.Actor, Active: sess.Status == SessionActive}
		cursor := &sess.Cursor
		if after != nil {
			cursor, out.After = nil, *after
		}
		return s.fillWake(ctx, tx, &out, cursor, limit)
	})
	return out, err
}

// WakeForActor reads a wake snapshot for a legacy actor label from an
// explicit position (legacy actors have no persisted cursor).
func (s *Store) WakeForActor(ctx context.Context, workspaceID, actor string, after int64, limit int) (WakeSnapshot, error) {
	out := WakeSnapshot{WorkspaceID: workspaceID, Actor: actor, Active: true, After: after}
	err := s.readTx(ctx, func(tx *Tx) error {
		return s.fillWake(ctx, tx, &out, nil, limit)
	})
	return out, err
}

func (s *Store) fillWake(ctx context.Context, tx *Tx, out *WakeSnapshot, cursor *journal.Anchor, limit int) error {
	h, ok, err := sqlite.ReadHead(ctx, tx, out.WorkspaceID)
	if err != nil {
		return err
	}
	if !ok {
		return workspaceNotFound(out.WorkspaceID)
	}
	out.Head = journal.Anchor{EpochID: h.EpochID, Sequence: h.Sequence, Hash: h.Hash}
	if cursor != nil {
		out.After = 0
		if cursor.EpochID == h.EpochID {
			out.After = cursor.Sequence
		}
	}
	from := max(out.After, h.Sequence-WakeWindow)
	out.Windowed = from > out.After
	if out.Candidates, err = wakeCandidates(ctx, tx, out.WorkspaceID, from, limit); err != nil {
		return err
	}
	if out.PendingOffers, err = pendingOffers(ctx, tx, out.WorkspaceID, out.SessionID, out.Actor); err != nil {
		return err
	}
	if out.Tasks, err = wakeTasks(ctx, tx, out.WorkspaceID, out.SessionID, out.Actor); err != nil {
		return err
	}
	out.OwnOffers, err = ownOffers(ctx, tx, out.WorkspaceID, out.SessionID, out.Actor)
	return err
}

// ownOffers lists the ids of the handoffs the viewer offered.
func ownOffers(ctx context.Context, q querier, workspaceID, sessionID, actor string) ([]string, error) {
	query, who := "SELECT id FROM handoffs WHERE workspace_id = ? AND from_session_id = ? ORDER BY id", sessionID
	if sessionID == "" {
		query, who = "SELECT id FROM handoffs WHERE workspace_id = ? AND from_actor = ? AND from_session_id IS NULL ORDER BY id", actor
	}
	rows, err := q.QueryContext(ctx, query, workspaceID, who)
	if err != nil {
		return nil, fmt.Errorf("read own handoffs: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("scan own handoff: %w", err)
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// wakeCandidates reads the events of WakeTypes after a sequence. The scan
// walks the primary key from after and reads payloads only of matching rows.
func wakeCandidates(ctx context.Context, q querier, workspaceID string, after int64, limit int) ([]journal.Event, error) {
	args := []any{workspaceID, after}
	for _, t := range WakeTypes {
		args = append(args, string(t))
	}
	args = append(args, limit)
	return queryEvents(ctx, q, "read wake events", "SELECT "+sqlite.EventColumns+
		" FROM events WHERE workspace_id = ? AND sequence > ? AND type IN (?"+
		strings.Repeat(", ?", len(WakeTypes)-1)+") ORDER BY sequence LIMIT ?", args...)
}

// wakeTasks lists the tasks the viewer holds or reported complete.
func wakeTasks(ctx context.Context, q querier, workspaceID, sessionID, actor string) ([]WakeTask, error) {
	var rows *sql.Rows
	var err error
	if sessionID != "" {
		rows, err = q.QueryContext(ctx, `SELECT id, title, status, lease_expires_at FROM tasks WHERE workspace_id = ?
AND (assignee_session_id = ? OR reported_by_session_id = ?) ORDER BY id`, workspaceID, sessionID, sessionID)
	} else {
		rows, err = q.QueryContext(ctx, `SELECT id, title, status, lease_expires_at FROM tasks WHERE workspace_id = ?
AND (assignee = ? OR reported_by = ?) ORDER BY id`, workspaceID, actor, actor)
	}
	if err != nil {
		return nil, fmt.Errorf("read wake tasks: %w", err)
	}
	defer rows.Close()
	var out []WakeTask
	for rows.Next() {
		var t WakeTask
		if err := rows.Scan(&t.ID, &t.Title, &t.Status, &t.LeaseExpiresAt); err != nil {
			return nil, fmt.Errorf("scan wake task: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// pendingOffers lists the pending handoffs addressed to the viewer through
// the handoffs target index (to_actor leads it; a session's offers carry
// its actor label as to_actor too).
func pendingOffers(ctx context.Context, q querier, workspaceID, sessionID, actor string) ([]WakeOffer, error) {
	query := `SELECT id, task_id, from_actor, summary, expires_at FROM handoffs WHERE workspace_id = ? AND to_actor = ?
AND status = 'pending' AND to_session_id = ? ORDER BY offered_at, id`
	args := []any{workspaceID, actor, sessionID}
	if sessionID == "" {
		query = `SELECT id, task_id, from_actor, summary, expires_at FROM handoffs WHERE workspace_id = ? AND to_actor = ?
AND status = 'pending' AND to_session_id IS NULL ORDER BY offered_at, id`
		args = args[:2]
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("read pending offers: %w", err)
	}
	defer rows.Close()
	var out []WakeOffer
	for rows.Next() {
		var o WakeOffer
		if err := rows.Scan(&o.ID, &o.TaskID, &o.FromActor, &o.Summary, &o.ExpiresAt); err != nil {
			return nil, fmt.Errorf("scan pending offer: %w", err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}
