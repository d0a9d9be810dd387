package store

import (
	"context"
	"reflect"
	"testing"
)

// offerTable is a Handoffs over a slice in insertion order, matching
// filters the way the port states.
type offerTable []Handoff

func (o offerTable) Handoff(context.Context, string) (Handoff, bool, error) {
	return Handoff{}, false, nil
}
func (o offerTable) InsertHandoff(context.Context, Handoff) error          { return nil }
func (o offerTable) UpdateHandoff(context.Context, Handoff, Handoff) error { return nil }

func (o offerTable) Handoffs(_ context.Context, ws string, f HandoffFilter) ([]Handoff, error) {
	eq := func(want, got string) bool { return want == "" || want == got }
	out := []Handoff{}
	for _, h := range o {
		if h.WorkspaceID == ws && eq(f.TaskID, h.TaskID) && eq(string(f.Status), string(h.Status)) &&
			eq(f.ToActor, h.ToActor) && eq(f.FromActor, h.FromActor) &&
			(f.ToSessionID == "" || sameText(h.ToSessionID, f.ToSessionID)) &&
			(f.FromSessionID == "" || sameText(h.FromSessionID, f.FromSessionID)) {
			out = append(out, h)
		}
	}
	return out, nil
}

func offerIDs(list []Handoff) []string {
	out := []string{}
	for _, h := range list {
		out = append(out, h.ID)
	}
	return out
}

// offers is a workspace's table: offers between labels, from and to the
// session "s1" (whose label is "bob"), in an insertion order that is
// neither id nor time order.
func offers() offerTable {
	s1, s2 := "s1", "s2"
	o := func(id, task, from, to string, status HandoffStatus, offered, expires string) Handoff {
		return Handoff{ID: id, WorkspaceID: "ws", TaskID: task, FromActor: from, ToActor: to, Status: status,
			OfferedAt: offered, ExpiresAt: expires}
	}
	toSession := o("h5", "t2", "carol", "bob", HandoffPending, "T1", "T9")
	toSession.FromSessionID, toSession.ToSessionID = &s2, &s1
	fromSession := o("h0", "t3", "bob", "carol", HandoffPending, "T2", "T9")
	fromSession.FromSessionID, fromSession.ToSessionID = &s1, &s2
	return offerTable{
		o("h9", "t1", "alice", "bob", HandoffPending, "T3", "T5"),
		o("h2", "t1", "alice", "bob", HandoffPending, "T3", "T5"),
		o("h7", "t1", "alice", "bob", HandoffDeclined, "T1", "T4"),
		toSession,
		o("h3", "t2", "bob", "alice", HandoffPending, "T2", "T4"),
		fromSession,
		o("h1", "t4", "bob", "alice", HandoffExpired, "T4", "T4"),
		{ID: "h8", WorkspaceID: "elsewhere", TaskID: "t1", ToActor: "bob", Status: HandoffPending, OfferedAt: "T0", ExpiresAt: "T9"},
	}
}

// elapsed is what a sweep at now expires: the pending offers past their
// deadline, in sweep order.
func elapsed(q Handoffs, taskID, now string) ([]Handoff, error) {
	list, err := pendingOf(context.Background(), q, "ws", taskID)
	return keepOffers(list, func(h *Handoff) bool { return offerElapsed(h, now) }), err
}

// shown is what a poll at now shows a viewer: of the offers its sweep
// leaves pending, those addressed to the viewer.
func shown(q Handoffs, to Viewer, now string) ([]Handoff, error) {
	list, err := pendingOf(context.Background(), q, "ws", "")
	return offersShownTo(keepOffers(list, func(h *Handoff) bool { return !offerElapsed(h, now) }), to), err
}

// TestHandoffRulesListTheOffersTheyName checks each rule over one table:
// which offers it keeps and the order it gives them.
func TestHandoffRulesListTheOffersTheyName(t *testing.T) {
	ctx := context.Background()
	q := offers()
	session, label := Viewer{SessionID: "s1", Actor: "bob"}, Viewer{Actor: "bob"}
	for _, c := range []struct {
		name string
		list func() ([]Handoff, error)
		want []string
	}{
		{"sweep order: to_actor, status, expires_at, then insertion", func() ([]Handoff, error) { return pendingOf(ctx, q, "ws", "") },
			[]string{"h3", "h9", "h2", "h5", "h0"}},
		{"one task's pending offers", func() ([]Handoff, error) { return pendingOf(ctx, q, "ws", "t1") }, []string{"h9", "h2"}},
		{"elapsed includes a deadline equal to now", func() ([]Handoff, error) { return elapsed(q, "", "T5") },
			[]string{"h3", "h9", "h2"}},
		{"elapsed of one task", func() ([]Handoff, error) { return elapsed(q, "t2", "T5") }, []string{"h3"}},
		{"live excludes a deadline equal to now", func() ([]Handoff, error) { return liveTaskOffers(ctx, q, "ws", "t1", "T5") },
			[]string{}},
		{"live by (offered_at, id)", func() ([]Handoff, error) { return liveTaskOffers(ctx, q, "ws", "t1", "T4") },
			[]string{"h2", "h9"}},
		{"pending to a session", func() ([]Handoff, error) { return offersToSession(ctx, q, "ws", "s1") }, []string{"h5"}},
		{"a poll shows a session its own offers", func() ([]Handoff, error) { return shown(q, session, "T4") },
			[]string{"h5"}},
		{"a poll shows a label every offer to it", func() ([]Handoff, error) { return shown(q, label, "T4") },
			[]string{"h5", "h2", "h9"}},
		{"a poll shows no offer past its deadline", func() ([]Handoff, error) { return shown(q, label, "T5") },
			[]string{"h5"}},
		{"the board: newest first, ties by id", func() ([]Handoff, error) { return workspaceOffers(ctx, q, "ws") },
			[]string{"h1", "h2", "h9", "h0", "h3", "h5", "h7"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.list()
			if err != nil || !reflect.DeepEqual(offerIDs(got), c.want) {
				t.Fatalf("%v (%v), want %v", offerIDs(got), err, c.want)
			}
		})
	}
}

// TestWakeTellsAViewerOfItsOwnOffers checks what a wake check reports:
// pending offers to the viewer (a label's exclude offers to a session)
// and, in id order, the offers it made (a label's exclude a session's).
func TestWakeTellsAViewerOfItsOwnOffers(t *testing.T) {
	ctx := context.Background()
	q := offers()
	for _, c := range []struct {
		name          string
		viewer        Viewer
		pending, made []string
	}{
		{"session", Viewer{SessionID: "s1", Actor: "bob"}, []string{"h5"}, []string{"h0"}},
		{"label", Viewer{Actor: "bob"}, []string{"h2", "h9"}, []string{"h1", "h3"}},
		{"nobody", Viewer{Actor: "dave"}, []string{}, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			pending, err := wakeOffers(ctx, q, "ws", c.viewer)
			if err != nil {
				t.Fatal(err)
			}
			got := []string{}
			for _, o := range pending {
				got = append(got, o.ID)
			}
			made, err := offerIDsBy(ctx, q, "ws", c.viewer)
			if err != nil || !reflect.DeepEqual(got, c.pending) || !reflect.DeepEqual(made, c.made) {
				t.Fatalf("pending %v, made %v (%v); want %v and %v", got, made, err, c.pending, c.made)
			}
		})
	}
}
