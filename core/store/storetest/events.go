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

// pageBoundaries reads pages of every kind of range: a page is at most
// limit events of the range, in ascending sequence order (descending when
// newest first), and an empty page is empty rather than nil.
func pageBoundaries(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_pages")
	createWorkspace(t, e, "ws_other")
	kinds := []string{"a.one", "b.two", "a.one", "c.three", "b.two"}
	appendEvents(t, e, "ws_pages", kinds, `{}`, `{}`, `{}`, `{}`, `{}`)
	appendEvents(t, e, "ws_other", kinds, `{}`, `{}`)
	cases := []struct {
		name      string
		workspace string
		r         store.EventRange
		want      []int64
	}{
		{"from genesis", "ws_pages", store.EventRange{Limit: 10}, []int64{1, 2, 3, 4, 5}},
		{"limit respected", "ws_pages", store.EventRange{Limit: 2}, []int64{1, 2}},
		{"no limit", "ws_pages", store.EventRange{Limit: -1}, []int64{1, 2, 3, 4, 5}},
		{"middle page", "ws_pages", store.EventRange{After: 2, Limit: 2}, []int64{3, 4}},
		{"last partial page", "ws_pages", store.EventRange{After: 4, Limit: 10}, []int64{5}},
		{"at the head", "ws_pages", store.EventRange{After: 5, Limit: 10}, []int64{}},
		{"past the head", "ws_pages", store.EventRange{After: 9, Limit: 10}, []int64{}},
		{"unknown workspace", "ws_nobody", store.EventRange{Limit: 10}, []int64{}},
		{"one sequence", "ws_pages", store.EventRange{After: 2, Limit: 1}, []int64{3}},
		{"between two sequences", "ws_pages", store.EventRange{After: 1, Before: 5, Limit: 10}, []int64{2, 3, 4}},
		{"newest from the head", "ws_pages", store.EventRange{Limit: 10, Newest: true}, []int64{5, 4, 3, 2, 1}},
		{"newest, limit respected", "ws_pages", store.EventRange{Limit: 2, Newest: true}, []int64{5, 4}},
		{"newest below a sequence", "ws_pages", store.EventRange{Before: 4, Limit: 10, Newest: true}, []int64{3, 2, 1}},
		{"newest between two sequences", "ws_pages", store.EventRange{After: 1, Before: 5, Limit: 2, Newest: true}, []int64{4, 3}},
		{"newest of one type", "ws_pages", store.EventRange{Types: []string{"a.one"}, Limit: 10, Newest: true}, []int64{3, 1}},
		{"newest of one type below a sequence", "ws_pages", store.EventRange{Before: 3, Types: []string{"a.one"}, Limit: 10, Newest: true}, []int64{1}},
		{"nothing below the first", "ws_pages", store.EventRange{Before: 1, Limit: 10, Newest: true}, []int64{}},
		{"two types", "ws_pages", store.EventRange{Types: []string{"b.two", "c.three"}, Limit: 10}, []int64{2, 4, 5}},
		{"two types after a sequence", "ws_pages", store.EventRange{After: 2, Types: []string{"b.two", "c.three"}, Limit: 10}, []int64{4, 5}},
		{"two types, limit respected", "ws_pages", store.EventRange{Types: []string{"a.one", "b.two"}, Limit: 2}, []int64{1, 2}},
		{"two types below a sequence", "ws_pages", store.EventRange{Before: 5, Types: []string{"b.two", "c.three"}, Limit: 10}, []int64{2, 4}},
		{"an absent type", "ws_pages", store.EventRange{Types: []string{"z.none"}, Limit: 10}, []int64{}},
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, c := range cases {
			got, err := tx.Events(ctx, c.workspace, c.r)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			if got == nil || !slices.Equal(sequences(got), c.want) {
				return fmt.Errorf("Events %s: got %v (nil=%v), want %v", c.name, sequences(got), got == nil, c.want)
			}
			for _, ev := range got {
				if ev.WorkspaceID != c.workspace {
					return fmt.Errorf("Events %s returned an event of %s", c.name, ev.WorkspaceID)
				}
			}
		}
		return nil
	})
}

// eventTypesAndAnchors checks the distinct-type listing, the read of
// the event at one sequence (a cursor's anchor) and the list of heads.
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
		at, err := tx.Events(ctx, "ws_b", store.EventRange{After: 2, Limit: 1})
		if err != nil {
			return err
		}
		if len(at) != 1 || at[0].EpochID != evs[2].EpochID || at[0].Sequence != 3 || at[0].Hash != evs[2].Hash {
			return fmt.Errorf("the event at 3: %+v, want %+v", at, evs[2])
		}
		for _, absent := range []struct {
			ws  string
			seq int64
		}{{"ws_b", 5}, {"ws_a", 1}, {"ws_nobody", 1}} {
			if got, err := tx.Events(ctx, absent.ws, store.EventRange{After: absent.seq - 1, Limit: 1}); err != nil || len(got) != 0 {
				return fmt.Errorf("the event at %s@%d: %v err=%v, want none", absent.ws, absent.seq, sequences(got), err)
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
		after, err := tx.Events(ctx, "ws_bytes", store.EventRange{Limit: 100})
		if err != nil {
			return err
		}
		if err := same("Events", after); err != nil {
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
		before, err := tx.Events(ctx, "ws_bytes", store.EventRange{Limit: 100, Newest: true})
		if err != nil {
			return err
		}
		slices.Reverse(before)
		if err := same("Events newest first", before); err != nil {
			return err
		}
		typed, err := tx.Events(ctx, "ws_bytes", store.EventRange{Before: 100, Types: []string{"report.posted"}, Limit: 100})
		if err != nil {
			return err
		}
		return same("Events of a type", typed)
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
		if evs, err := tx.Events(ctx, "ws_snap", store.EventRange{After: h.Sequence, Limit: 10}); err != nil || len(evs) != 0 {
			return fmt.Errorf("Events after the snapshot head saw %d events (%v)", len(evs), err)
		}
		heads, err := tx.Heads(ctx)
		if err != nil || len(heads) != 1 || heads[0] != h {
			return fmt.Errorf("Heads inside the read: %+v (%v), want %+v", heads, err, h)
		}
		before, err := tx.Events(ctx, "ws_snap", store.EventRange{Limit: 10, Newest: true})
		if err != nil || len(before) != int(h.Sequence) {
			return fmt.Errorf("Events newest first inside the read saw %d events (%v), want %d", len(before), err, h.Sequence)
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
