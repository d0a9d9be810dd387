package sqlite

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// TestOpenAddsTheTypeIndexOnlyToALongJournal opens journals just below
// and at typeIndexAfter events and requires the events type index in the
// long one only: a file of short journals keeps the reference's schema.
func TestOpenAddsTheTypeIndexOnlyToALongJournal(t *testing.T) {
	cases := []struct {
		name   string
		events int
		want   bool
	}{
		{"a short journal gains no index", typeIndexAfter - 2, false},
		{"a long journal gains the index", typeIndexAfter, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := longJournal(t, tc.events)
			openAndClose(t, path)
			var n int
			if err := rawFile(t, path).QueryRow("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?",
				TypeIndex).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if got := n == 1; got != tc.want {
				t.Fatalf("index present %v, want %v", got, tc.want)
			}
		})
	}
}

// TestUnboundedTypedReadsGoThroughTheTypeIndex requires a read of every
// event of some types to be planned on the type index once the file has
// it, and to answer exactly what the bounded read along the primary key
// answers.
func TestUnboundedTypedReadsGoThroughTheTypeIndex(t *testing.T) {
	ctx := context.Background()
	path := longJournal(t, typeIndexAfter+100)
	openAndClose(t, path)
	raw := rawFile(t, path)
	if plan := queryPlan(t, raw, typedEventsQuery(2), "ws_long", 0, "a", "b"); !strings.Contains(plan, TypeIndex) {
		t.Fatalf("the typed read is planned as %q, not on %s", plan, TypeIndex)
	}
	db, err := Open(ctx, Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	types := []string{"task.progressed", "independence.claimed"}
	for _, after := range []int64{0, 10, typeIndexAfter + 99, typeIndexAfter + 200} {
		var unbounded, bounded []journal.Event
		if err := (Engine{DB: db}).Read(ctx, func(tx store.Tx) error {
			var err error
			if unbounded, err = tx.Events(ctx, "ws_long", store.EventRange{After: after, Types: types, Limit: -1}); err != nil {
				return err
			}
			bounded, err = tx.Events(ctx, "ws_long", store.EventRange{After: after, Types: types, Limit: 1 << 30})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(unbounded, bounded) {
			t.Fatalf("after %d: the unbounded typed read holds %d events, the bounded one %d", after, len(unbounded), len(bounded))
		}
		if want := max(0, typeIndexAfter+100-int(after)); len(bounded) != want {
			t.Fatalf("after %d: read %d events, want %d", after, len(bounded), want)
		}
	}
}
