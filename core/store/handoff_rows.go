package store

import (
	"cmp"
	"context"
	"slices"
)

// The handoff rules over the rows Handoffs.Handoffs returns (in insertion
// order): when an offer is live, the orders the rules list offers in, and
// which offers concern a viewer. Text compares byte for byte, as SQLite's
// BINARY and PostgreSQL's "C" collation do, so the orders are those the
// engines' ORDER BY clauses gave.

// offerLive reports whether an offer can still be answered at now: it is
// pending and its deadline is after now.
func offerLive(h *Handoff, now string) bool {
	return h.Status == HandoffPending && now < h.ExpiresAt
}

// offerElapsed reports whether a pending offer's deadline is at or before
// now, so that a sweep expires it.
func offerElapsed(h *Handoff, now string) bool {
	return h.Status == HandoffPending && h.ExpiresAt <= now
}

// inSweepOrder orders offers listed in insertion order the way the sweeps
// expire them: by (to_actor, status, expires_at), ties in insertion order.
// It is the order SQLite walks handoffs_target_idx in, which the
// reference's sweeps follow; journaling one event per offer in this order
// keeps two engines' journals the same.
func inSweepOrder(list []Handoff) []Handoff {
	slices.SortStableFunc(list, func(a, b Handoff) int {
		return cmp.Or(cmp.Compare(a.ToActor, b.ToActor), cmp.Compare(a.Status, b.Status), cmp.Compare(a.ExpiresAt, b.ExpiresAt))
	})
	return list
}

// byOffered orders offers by (offered_at, id), oldest first.
func byOffered(list []Handoff) []Handoff {
	slices.SortFunc(list, func(a, b Handoff) int {
		return cmp.Or(cmp.Compare(a.OfferedAt, b.OfferedAt), cmp.Compare(a.ID, b.ID))
	})
	return list
}

// newestOffersFirst orders offers the way the board shows them: offered_at
// newest first, ties by id.
func newestOffersFirst(list []Handoff) []Handoff {
	slices.SortFunc(list, func(a, b Handoff) int {
		return cmp.Or(cmp.Compare(b.OfferedAt, a.OfferedAt), cmp.Compare(a.ID, b.ID))
	})
	return list
}

// keepOffers keeps the offers for which keep is true, in their order.
func keepOffers(list []Handoff, keep func(*Handoff) bool) []Handoff {
	return slices.DeleteFunc(list, func(h Handoff) bool { return !keep(&h) })
}

// sameText reports whether a nullable column holds want; want "" means
// NULL.
func sameText(v *string, want string) bool {
	if want == "" {
		return v == nil
	}
	return v != nil && *v == want
}

// pendingOf lists a workspace's pending offers (of one task when taskID is
// not empty) in sweep order.
func pendingOf(ctx context.Context, q Handoffs, workspaceID, taskID string) ([]Handoff, error) {
	list, err := q.Handoffs(ctx, workspaceID, HandoffFilter{TaskID: taskID, Status: HandoffPending})
	return inSweepOrder(list), err
}

// liveTaskOffers lists a task's offers that are live at now, by
// (offered_at, id).
func liveTaskOffers(ctx context.Context, q Handoffs, workspaceID, taskID, now string) ([]Handoff, error) {
	list, err := q.Handoffs(ctx, workspaceID, HandoffFilter{TaskID: taskID, Status: HandoffPending})
	return byOffered(keepOffers(list, func(h *Handoff) bool { return offerLive(h, now) })), err
}

// offersToSession lists the pending offers addressed to a session, by
// (offered_at, id).
func offersToSession(ctx context.Context, q Handoffs, workspaceID, sessionID string) ([]Handoff, error) {
	list, err := q.Handoffs(ctx, workspaceID, HandoffFilter{ToSessionID: sessionID, Status: HandoffPending})
	return byOffered(list), err
}

// offersShownTo picks, from a workspace's live offers, what a poll shows
// a viewer: the offers addressed to its session, or, for an actor label,
// every offer whose to_actor is the label (offers to a session carry the
// session's label too), by (offered_at, id).
func offersShownTo(live []Handoff, to Viewer) []Handoff {
	out := []Handoff{}
	for _, h := range live {
		if (to.SessionID != "" && sameText(h.ToSessionID, to.SessionID)) || (to.SessionID == "" && h.ToActor == to.Actor) {
			out = append(out, h)
		}
	}
	return byOffered(out)
}

// wakeOffers lists what a wake check tells a viewer of, however old: the
// pending offers whose to_actor is its label and which name its session,
// or no session for an actor label, by (offered_at, id). The read goes
// through the target index, which to_actor leads.
func wakeOffers(ctx context.Context, q Handoffs, workspaceID string, to Viewer) ([]WakeOffer, error) {
	list, err := q.Handoffs(ctx, workspaceID, HandoffFilter{ToActor: to.Actor, Status: HandoffPending, ToSessionID: to.SessionID})
	if err != nil {
		return nil, err
	}
	out := []WakeOffer{}
	for _, h := range byOffered(list) {
		if sameText(h.ToSessionID, to.SessionID) {
			out = append(out, WakeOffer{ID: h.ID, TaskID: h.TaskID, FromActor: h.FromActor, Summary: h.Summary, ExpiresAt: h.ExpiresAt})
		}
	}
	return out, nil
}

// offerIDsBy lists, in id order, the ids of the offers a viewer made:
// from its session, or, for an actor label, from the label without a
// session.
func offerIDsBy(ctx context.Context, q Handoffs, workspaceID string, by Viewer) ([]string, error) {
	filter := HandoffFilter{FromActor: by.Actor}
	if by.SessionID != "" {
		filter = HandoffFilter{FromSessionID: by.SessionID}
	}
	list, err := q.Handoffs(ctx, workspaceID, filter)
	if err != nil {
		return nil, err
	}
	ids := []string{}
	for _, h := range list {
		if sameText(h.FromSessionID, by.SessionID) {
			ids = append(ids, h.ID)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// workspaceOffers lists every offer of a workspace, whatever its status,
// in the board's order.
func workspaceOffers(ctx context.Context, q Handoffs, workspaceID string) ([]Handoff, error) {
	list, err := q.Handoffs(ctx, workspaceID, HandoffFilter{})
	return newestOffersFirst(list), err
}

// resolved is an offer after it is answered or expired at now.
func resolved(h Handoff, status HandoffStatus, now string) Handoff {
	h.Status, h.ResolvedAt = status, &now
	return h
}
