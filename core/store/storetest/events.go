package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// appendEvents appends one event per payload, of the given types in turn
// (the first type when types runs out), each in its own write, and returns
// them as appended.
func appendEvents(t *testing.T, e store.Engine, workspaceID string, types []string, payloads ...string) []journal.Event {
	t.Helper()
	ctx := context.Background()
	var out []journal.Event
	for i, p := range payloads {
		err := e.Write(ctx, func(tx store.Tx) error {
			h, found, err := tx.Head(ctx, workspaceID)
			if err != nil || !found {
				return fmt.Errorf("head of %s: found=%v err=%v", workspaceID, found, err)
			}
			kind := types[0]
			if i < len(types) {
				kind = types[i]
			}
			session := fmt.Sprintf("session_%d", i)
			ev := journal.Event{WorkspaceID: workspaceID, EpochID: h.EpochID, Sequence: h.Sequence + 1,
				ID: fmt.Sprintf("event_%s_%d", workspaceID, i), Protocol: journal.ProtocolV2, Type: kind, EntityID: "task_1",
				Actor: "enginetest", OccurredAt: clock, PayloadJSON: []byte(p), PrevHash: h.Hash, SessionID: &session}
			if i%2 == 1 {
				ev.SessionID = nil
			}
			var hasher journal.Hasher
			if ev.Hash, err = hasher.Hash(&ev); err != nil {
				return err
			}
			out = append(out, ev)
			return tx.Append(ctx, &ev)
		})
		if err != nil {
			t.Fatalf("append event %d: %v", i, err)
		}
	}
	return out
}

func sequences(events []journal.Event) []int64 {
	out := make([]int64, len(events))
	for i := range events {
		out[i] = events[i].Sequence
	}
	return out
}

// pageBoundaries reads pages after and before every kind of position: a
// page is at most limit events, in sequence order, and an empty page is
// empty rather than nil.
func pageBoundaries(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_pages")
	createWorkspace(t, e, "ws_other")
	kinds := []string{"a.one", "b.two", "a.one", "c.three", "b.two"}
	appendEvents(t, e, "ws_pages", kinds, `{}`, `{}`, `{}`, `{}`, `{}`)
	appendEvents(t, e, "ws_other", kinds, `{}`, `{}`)
	after := []struct {
		name         string
		workspace    string
		after, limit int64
		want         []int64
	}{
		{"from genesis", "ws_pages", 0, 10, []int64{1, 2, 3, 4, 5}},
		{"limit respected", "ws_pages", 0, 2, []int64{1, 2}},
		{"middle page", "ws_pages", 2, 2, []int64{3, 4}},
		{"last partial page", "ws_pages", 4, 10, []int64{5}},
		{"at the head", "ws_pages", 5, 10, []int64{}},
		{"past the head", "ws_pages", 9, 10, []int64{}},
		{"unknown workspace", "ws_nobody", 0, 10, []int64{}},
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, c := range after {
			got, err := tx.EventsAfter(ctx, c.workspace, c.after, int(c.limit))
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if got == nil || !slices.Equal(sequences(got), c.want) {
				return fmt.Errorf("EventsAfter %s: got %v (nil=%v), want %v", c.name, sequences(got), got == nil, c.want)
			}
			for _, ev := range got {
				if ev.WorkspaceID != c.workspace {
					return fmt.Errorf("EventsAfter %s returned an event of %s", c.name, ev.WorkspaceID)
				}
			}
		}
		return nil
	})
	before := []struct {
		name      string
		before    int64
		eventType string
		limit     int
		want      []int64
	}{
		{"from the head", 0, "", 10, []int64{5, 4, 3, 2, 1}},
		{"limit respected", 0, "", 2, []int64{5, 4}},
		{"below a sequence", 4, "", 10, []int64{3, 2, 1}},
		{"one type", 0, "a.one", 10, []int64{3, 1}},
		{"one type below a sequence", 3, "a.one", 10, []int64{1}},
		{"nothing below the first", 1, "", 10, []int64{}},
		{"an absent type", 0, "z.none", 10, []int64{}},
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, c := range before {
			got, err := tx.EventsBefore(ctx, "ws_pages", c.before, c.eventType, c.limit)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if got == nil || !slices.Equal(sequences(got), c.want) {
				return fmt.Errorf("EventsBefore %s: got %v (nil=%v), want %v", c.name, sequences(got), got == nil, c.want)
			}
		}
		return nil
	})
	ofTypes := []struct {
		name         string
		after, limit int64
		types        []string
		want         []int64
	}{
		{"two types", 0, 10, []string{"b.two", "c.three"}, []int64{2, 4, 5}},
		{"after a sequence", 2, 10, []string{"b.two", "c.three"}, []int64{4, 5}},
		{"limit respected", 0, 2, []string{"a.one", "b.two"}, []int64{1, 2}},
		{"an absent type", 0, 10, []string{"z.none"}, []int64{}},
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, c := range ofTypes {
			got, err := tx.EventsOfTypes(ctx, "ws_pages", c.after, c.types, int(c.limit))
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if got == nil || !slices.Equal(sequences(got), c.want) {
				return fmt.Errorf("EventsOfTypes %s: got %v (nil=%v), want %v", c.name, sequences(got), got == nil, c.want)
			}
		}
		return nil
	})
}

// eventTypesAndAnchors checks the distinct-type listing, single-event
// anchors and the list of heads.
func eventTypesAndAnchors(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_b")
	createWorkspace(t, e, "ws_a")
	evs := appendEvents(t, e, "ws_b", []string{"task.created", "report.posted", "task.created", "Task.Z"}, `{}`, `{}`, `{}`, `{}`)
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, c := range []struct {
			after int64
			want  []string
		}{
			{0, []string{"Task.Z", "report.posted", "task.created"}},
			{2, []string{"Task.Z", "task.created"}},
			{4, []string{}},
		} {
			got, err := tx.EventTypes(ctx, "ws_b", c.after)
			if err != nil {
				return err
			}
			if got == nil || !slices.Equal(got, c.want) {
				return fmt.Errorf("EventTypes after %d: got %q (nil=%v), want %q in byte order", c.after, got, got == nil, c.want)
			}
		}
		a, found, err := tx.EventAnchor(ctx, "ws_b", 3)
		if err != nil {
			return err
		}
		want := journal.Anchor{EpochID: evs[2].EpochID, Sequence: 3, Hash: evs[2].Hash}
		if !found || a != want {
			return fmt.Errorf("EventAnchor 3: found=%v %+v, want %+v", found, a, want)
		}
		for _, absent := range []struct {
			ws  string
			seq int64
		}{{"ws_b", 5}, {"ws_b", 0}, {"ws_a", 1}, {"ws_nobody", 1}} {
			if _, found, err := tx.EventAnchor(ctx, absent.ws, absent.seq); err != nil || found {
				return fmt.Errorf("EventAnchor %s@%d: found=%v err=%v, want not found", absent.ws, absent.seq, found, err)
			}
		}
		heads, err := tx.Heads(ctx)
		if err != nil {
			return err
		}
		if len(heads) != 2 || heads[0].WorkspaceID != "ws_a" || heads[1].WorkspaceID != "ws_b" {
			return fmt.Errorf("Heads: %+v, want ws_a then ws_b", heads)
		}
		if heads[0].Sequence != 0 || heads[0].Hash != journal.GenesisHash || heads[1].Sequence != 4 || heads[1].Hash != evs[3].Hash {
			return fmt.Errorf("Heads: %+v, want ws_a at genesis and ws_b at 4", heads)
		}
		return nil
	})
}

// payloadsRoundTrip appends payloads that canonical JSON would rewrite
// (spacing, key order, escapes, long numbers, non-ASCII text) and reads
// them back through every event read: the bytes are the ones appended,
// and so are the session ids (nil stays nil), so every hash still checks.
func payloadsRoundTrip(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_bytes")
	payloads := []string{
		`{"b":1,"a":2}`,
		"{ \"spaced\" : [ 1 , 2 ],\n\t\"tab\": true }",
		`{"escaped":"\u00e9\ud83d\ude00\/\"\\","lone":"\ud800"}`,
		`{"text":"é 😀 ü","n":12345678901234567890123,"f":1.50e+2,"z":-0.0}`,
		`{}`,
	}
	appended := appendEvents(t, e, "ws_bytes", []string{"report.posted"}, payloads...)
	same := func(how string, got []journal.Event) error {
		if len(got) != len(appended) {
			return fmt.Errorf("%s returned %d events, want %d", how, len(got), len(appended))
		}
		for i := range got {
			w := appended[i]
			g := got[i]
			if string(g.PayloadJSON) != string(w.PayloadJSON) {
				return fmt.Errorf("%s: event %d payload %q, want %q byte for byte", how, w.Sequence, g.PayloadJSON, w.PayloadJSON)
			}
			if (g.SessionID == nil) != (w.SessionID == nil) || (g.SessionID != nil && *g.SessionID != *w.SessionID) {
				return fmt.Errorf("%s: event %d session %v, want %v", how, w.Sequence, g.SessionID, w.SessionID)
			}
			g.PayloadJSON, w.PayloadJSON, g.SessionID, w.SessionID = nil, nil, nil, nil
			if fmt.Sprint(g) != fmt.Sprint(w) {
				return fmt.Errorf("%s: event %d read back as %+v, want %+v", how, w.Sequence, g, w)
			}
			var hasher journal.Hasher
			if !hasher.Matches(&got[i]) {
				return fmt.Errorf("%s: event %d no longer matches its hash", how, w.Sequence)
			}
		}
		return nil
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		after, err := tx.EventsAfter(ctx, "ws_bytes", 0, 100)
		if err != nil {
			return err
		}
		if err := same("EventsAfter", after); err != nil {
			return err
		}
		var each []journal.Event
		err = tx.EachEventAfter(ctx, "ws_bytes", 0, func(ev *journal.Event) error {
			c := *ev
			c.PayloadJSON = slices.Clone(ev.PayloadJSON)
			each = append(each, c)
			return nil
		})
		if err != nil {
			return err
		}
		if err := same("EachEventAfter", each); err != nil {
			return err
		}
		before, err := tx.EventsBefore(ctx, "ws_bytes", 0, "", 100)
		if err != nil {
			return err
		}
		slices.Reverse(before)
		if err := same("EventsBefore", before); err != nil {
			return err
		}
		typed, err := tx.EventsOfTypes(ctx, "ws_bytes", 0, []string{"report.posted"}, 100)
		if err != nil {
			return err
		}
		return same("EventsOfTypes", typed)
	})
}

// eachEventStops checks that EachEventAfter walks in sequence order from
// after and ends at the callback's first error.
func eachEventStops(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_each")
	appendEvents(t, e, "ws_each", []string{"x"}, `{}`, `{}`, `{}`, `{}`)
	stop := errors.New("stop here")
	var seen []int64
	err := e.Read(context.Background(), func(tx store.Tx) error {
		return tx.EachEventAfter(context.Background(), "ws_each", 1, func(ev *journal.Event) error {
			seen = append(seen, ev.Sequence)
			if ev.Sequence == 3 {
				return stop
			}
			return nil
		})
	})
	if !errors.Is(err, stop) || !slices.Equal(seen, []int64{2, 3}) {
		t.Fatalf("EachEventAfter from 1 stopping at 3: saw %v, err %v; want [2 3] and the callback's error", seen, err)
	}
}

// readIsOneSnapshot commits an append while a read transaction is open,
// after the read has looked: everything the read looks at afterwards
// still shows the journal as it was.
func readIsOneSnapshot(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_snap")
	appendEvents(t, e, "ws_snap", []string{"x"}, `{}`, `{}`)
	ctx := context.Background()
	err := e.Read(ctx, func(tx store.Tx) error {
		h, _, err := tx.Head(ctx, "ws_snap")
		if err != nil {
			return err
		}
		if err := e.Write(ctx, func(w store.Tx) error {
			_, err := appendOne(ctx, w, "ws_snap", "concurrent")
			return err
		}); err != nil {
			return fmt.Errorf("append while a read is open: %w", err)
		}
		if again, _, err := tx.Head(ctx, "ws_snap"); err != nil || again != h {
			return fmt.Errorf("head moved inside one read: %+v then %+v (%v)", h, again, err)
		}
		if evs, err := tx.EventsAfter(ctx, "ws_snap", h.Sequence, 10); err != nil || len(evs) != 0 {
			return fmt.Errorf("EventsAfter the snapshot head saw %d events (%v)", len(evs), err)
		}
		if _, found, err := tx.EventAnchor(ctx, "ws_snap", h.Sequence+1); err != nil || found {
			return fmt.Errorf("EventAnchor saw the later append (found=%v, %v)", found, err)
		}
		heads, err := tx.Heads(ctx)
		if err != nil || len(heads) != 1 || heads[0] != h {
			return fmt.Errorf("Heads inside the read: %+v (%v), want %+v", heads, err, h)
		}
		before, err := tx.EventsBefore(ctx, "ws_snap", 0, "", 10)
		if err != nil || len(before) != int(h.Sequence) {
			return fmt.Errorf("EventsBefore inside the read saw %d events (%v), want %d", len(before), err, h.Sequence)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if h := head(t, e, "ws_snap"); h.Sequence != 3 {
		t.Fatalf("after the read, head at %d, want the append committed at 3", h.Sequence)
	}
}
