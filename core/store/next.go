package store

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// clockActor is the actor of events the passage of time causes.
const clockActor = "system:clock"

// HandoffOffer pairs a pending offer with the task it is about.
type HandoffOffer struct {
	Handoff Handoff `json:"handoff"`
	Task    Task    `json:"task"`
}

// Next is what collab_next returns: one event page from the cursor, the
// reports routed to the caller inside exactly that page, and projections
// of the snapshot head.
type Next struct {
	Actor           string               `json:"actor"`
	Session         *CoordinationSession `json:"session"`
	OwnClaims       []Task               `json:"own_claims"`
	ReadyTasks      []Task               `json:"ready_tasks"`
	ClaimableTasks  []Task               `json:"claimable_tasks"`
	ConflictedTasks []TaskConflict       `json:"conflicted_tasks"`
	HandoffOffers   []HandoffOffer       `json:"handoff_offers"`
	Reports         []Report             `json:"reports"`
	Events          JournalPage          `json:"events"`
	ProjectionScope string               `json:"projection_scope"`
	ReportsScope    string               `json:"reports_scope"`
}

func invalidEventLimit() error {
	s := field.EventLimit.Spec()
	return collaberr.Newf(collaberr.InvalidEventLimit, "%s must be a whole number from %d to %d", s.Name, s.Min, s.Max)
}

// NextForSession polls from the session's persisted cursor. A known_cursor
// is only checked, never used to choose the page; polling never moves the
// cursor, so repeated polls return the same page until it is acknowledged.
func (s *Store) NextForSession(ctx context.Context, cred Credential, knownCursor *journal.Anchor, limit int) (Next, error) {
	var out Next
	err := s.writeTx(ctx, func(tx Tx) error {
		sess, err := authenticate(ctx, tx, cred, false)
		if err != nil {
			return err
		}
		now := s.nowISO()
		if err := s.readAheadPoll(ctx, tx, sess, knownCursor, limit, now); err != nil {
			return err
		}
		if err := checkCursors(ctx, tx, sess, knownCursor); err != nil {
			return err
		}
		if !field.EventLimit.Spec().Admits(int64(limit)) {
			return invalidEventLimit()
		}
		if err := touchSession(ctx, tx, sess, now); err != nil {
			return err
		}
		live, err := s.sweepOffers(ctx, tx, sess.WorkspaceID, "", clockActor, now)
		if err != nil {
			return err
		}
		sess.LastSeenAt = now
		if out, err = s.nextView(ctx, tx, sess.WorkspaceID, sess.Cursor.Sequence, limit, viewer{session: &sess, actor: sess.Actor, offers: live}, now); err != nil {
			return err
		}
		w, err := s.withholdingOf(ctx, tx, sess)
		out = w.Next(out)
		return err
	})
	return out, err
}

// checkCursors refuses a poll whose persisted or known cursor no longer
// names an event of this journal.
func checkCursors(ctx context.Context, tx Tx, sess CoordinationSession, known *journal.Anchor) error {
	for _, c := range []struct {
		anchor  *journal.Anchor
		message string
	}{
		{&sess.Cursor, "The session's persisted cursor no longer matches this journal; reset it explicitly"},
		{known, "Your last-known cursor no longer matches this journal; reset or re-read before continuing"},
	} {
		if c.anchor == nil {
			continue
		}
		if _, err := validateAnchor(ctx, tx, sess.WorkspaceID, *c.anchor); err != nil {
			ce, refused := collaberr.As(err)
			if !refused {
				return err
			}
			return collaberr.New(collaberr.CursorResetRequired, c.message).With("cursor", *c.anchor).With("cause", ce.Code)
		}
	}
	return nil
}

// NextForActor polls in legacy mode from an explicit sequence.
func (s *Store) NextForActor(ctx context.Context, workspaceID, actor string, after int64, limit int) (Next, error) {
	var out Next
	label, err := normalize.Actor(actor)
	if err != nil {
		return out, err
	}
	if !field.EventLimit.Spec().Admits(int64(limit)) {
		return out, invalidEventLimit()
	}
	err = s.writeTx(ctx, func(tx Tx) error {
		if _, err := readWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		now := s.nowISO()
		live, err := s.sweepOffers(ctx, tx, workspaceID, "", clockActor, now)
		if err != nil {
			return err
		}
		out, err = s.nextView(ctx, tx, workspaceID, after, limit, viewer{actor: label, offers: live}, now)
		return err
	})
	return out, err
}

// viewer is who is polling: a bound session, or a legacy actor label;
// offers are the workspace's offers live at the poll's time, what the
// poll's sweep left pending.
type viewer struct {
	session *CoordinationSession
	actor   string
	offers  []Handoff
}

func (v viewer) available(t *Task) bool {
	if v.session != nil {
		return t.EffectiveStatus == TaskOpen
	}
	return t.EffectiveStatus == TaskOpen || (t.EffectiveStatus == TaskLeaseExpired && t.AssigneeSessionID == nil)
}

func (v viewer) owns(t *Task) bool {
	if t.EffectiveStatus != TaskClaimed {
		return false
	}
	if v.session != nil {
		return t.AssigneeSessionID != nil && *t.AssigneeSessionID == v.session.ID
	}
	return t.Assignee != nil && *t.Assignee == v.actor
}

// nextView assembles what collab_next shows a viewer after sequence
// `after`: the event page, the tasks and claims as of the snapshot head,
// the reports routed to the viewer and the offers addressed to it.
func (s *Store) nextView(ctx context.Context, q Tx, wsID string, after int64, limit int, v viewer, now string) (Next, error) {
	out := Next{Actor: v.actor, Session: v.session, ProjectionScope: "snapshot_head", ReportsScope: "event_page", OwnClaims: []Task{}}
	var err error
	if out.Events, err = readEventPage(ctx, q, wsID, after, limit); err != nil {
		return out, err
	}
	ws, err := readWorkspace(ctx, q, wsID)
	if err != nil {
		return out, err
	}
	tasks, err := readHeadTasks(ctx, q, wsID, now)
	if err != nil {
		return out, err
	}
	reserved, err := reservations(ctx, q, ws.RepositoryKey, now)
	if err != nil {
		return out, err
	}
	p, err := projectAvailable(ctx, tasks, reserved, v.available)
	if err != nil {
		return out, err
	}
	out.ReadyTasks, out.ClaimableTasks, out.ConflictedTasks = p.claimable, p.claimable, p.conflicted
	for i := range tasks.unfinished { // a claim is unfinished
		if v.owns(&tasks.unfinished[i]) {
			out.OwnClaims = append(out.OwnClaims, tasks.unfinished[i])
		}
	}
	if out.HandoffOffers, err = offersFor(ctx, v, tasks); err != nil {
		return out, err
	}
	filter := ReportFilter{After: after, Through: out.Events.NextAnchor.Sequence}
	if v.session != nil {
		filter.RoutedTo = v.session.ID
	}
	if out.Events.NextAnchor.Sequence <= after {
		out.Reports = []Report{}
		return out, nil
	}
	out.Reports, err = queryReports(ctx, q, wsID, filter)
	return out, err
}

// offersFor pairs the live offers addressed to the viewer with their
// tasks, as of the head; an offer whose task is gone pairs with an empty
// task.
func offersFor(ctx context.Context, v viewer, tasks *headTasks) ([]HandoffOffer, error) {
	to := Viewer{Actor: v.actor}
	if v.session != nil {
		to.SessionID = v.session.ID
	}
	out := []HandoffOffer{}
	for _, h := range offersShownTo(v.offers, to) {
		t, found, err := tasks.task(ctx, h.TaskID)
		if err != nil {
			return nil, err
		}
		o := HandoffOffer{Handoff: h}
		if found {
			o.Task = *t
		}
		out = append(out, o)
	}
	return out, nil
}
