package store

import (
	"context"
	"slices"
	"strings"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/journal"
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

// WakeOffer is what a wake check shows of a pending handoff offered to
// the viewer.
type WakeOffer struct {
	ID, TaskID, FromActor, Summary, ExpiresAt string
}

// WakeTask is what a wake check shows of a task that belongs to the
// viewer: it holds the claim or it reported the task complete. Status is
// the stored status.
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
	err := s.engine().Read(ctx, func(tx Tx) error {
		sess, found, err := tx.Session(ctx, cred.SessionID)
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
		if err := s.fillWake(ctx, tx, &out, cursor, limit); err != nil {
			return err
		}
		w, err := s.withholdingOf(ctx, tx, sess)
		out.Candidates = w.Events(out.Candidates)
		return err
	})
	return out, err
}

// WakeForActor reads a wake snapshot for a legacy actor label from an
// explicit position (legacy actors have no persisted cursor).
func (s *Store) WakeForActor(ctx context.Context, workspaceID, actor string, after int64, limit int) (WakeSnapshot, error) {
	out := WakeSnapshot{WorkspaceID: workspaceID, Actor: actor, Active: true, After: after}
	err := s.engine().Read(ctx, func(tx Tx) error {
		return s.fillWake(ctx, tx, &out, nil, limit)
	})
	return out, err
}

func (s *Store) fillWake(ctx context.Context, tx Tx, out *WakeSnapshot, cursor *journal.Anchor, limit int) error {
	h, ok, err := tx.Head(ctx, out.WorkspaceID)
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
	types := make([]string, len(WakeTypes))
	for i, t := range WakeTypes {
		types[i] = string(t)
	}
	if out.Candidates, err = tx.Events(ctx, out.WorkspaceID, EventRange{After: from, Types: types, Limit: limit}); err != nil {
		return err
	}
	viewer := Viewer{SessionID: out.SessionID, Actor: out.Actor}
	if out.PendingOffers, err = wakeOffers(ctx, tx, out.WorkspaceID, viewer); err != nil {
		return err
	}
	if out.Tasks, err = wakeTasks(ctx, tx, out.WorkspaceID, viewer); err != nil {
		return err
	}
	out.OwnOffers, err = offerIDsBy(ctx, tx, out.WorkspaceID, viewer)
	return err
}

// wakeTasks lists, in id order, the tasks of a workspace that the viewer
// holds or reported complete, as a wake check shows them; never nil.
func wakeTasks(ctx context.Context, q Tasks, workspaceID string, of Viewer) ([]WakeTask, error) {
	tasks, err := q.Tasks(ctx, workspaceID, TaskFilter{HeldOrReportedBy: of})
	if err != nil {
		return nil, err
	}
	out := make([]WakeTask, len(tasks))
	for i, t := range tasks {
		out[i] = WakeTask{ID: t.ID, Title: t.Title, Status: string(t.Status), LeaseExpiresAt: t.LeaseExpiresAt}
	}
	slices.SortFunc(out, func(a, b WakeTask) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}
