package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// deliveriesKeptOnceAndMarksFinal: an announcement is kept once per
// channel (the first time stays), a recipient keeps one mark per subject,
// a refused write leaves no delivery, and a store that never held one
// reads none.
func deliveriesKeptOnceAndMarksFinal(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_d")
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		got, err := tx.DeliveriesOf(ctx, "ws_d", "report", []string{"r1"})
		if err == nil && (got == nil || len(got) != 0) {
			t.Errorf("a store without deliveries read %v", got)
		}
		return err
	})
	refusal := errors.New("refused")
	err := e.Write(context.Background(), func(tx store.Tx) error {
		if _, err := tx.InsertDelivery(context.Background(), delivery("announced", "hook", "2026-01-01T00:00:00.000Z")); err != nil {
			return err
		}
		return refusal
	})
	if !errors.Is(err, refusal) {
		t.Fatalf("write returned %v", err)
	}
	steps := []struct {
		d    store.Delivery
		want bool
	}{
		{delivery("announced", "hook", "2026-01-01T00:00:01.000Z"), true},
		{delivery("announced", "hook", "2026-01-01T00:00:02.000Z"), false},
		{delivery("announced", "wait", "2026-01-01T00:00:03.000Z"), true},
		{delivery("handled", "", "2026-01-01T00:00:04.000Z"), true},
		{delivery("declined", "", "2026-01-01T00:00:05.000Z"), false},
		{delivery("handled", "", "2026-01-01T00:00:06.000Z"), false},
	}
	for i, s := range steps {
		write(t, e, func(ctx context.Context, tx store.Tx) error {
			got, err := tx.InsertDelivery(ctx, s.d)
			if err == nil && got != s.want {
				t.Errorf("step %d (%s %s): inserted %v, want %v", i, s.d.Kind, s.d.Channel, got, s.want)
			}
			return err
		})
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		got, err := tx.DeliveriesOf(ctx, "ws_d", "report", []string{"r1", "r2"})
		if err != nil {
			return err
		}
		want := []string{"announced hook 2026-01-01T00:00:01.000Z", "announced wait 2026-01-01T00:00:03.000Z",
			"handled  2026-01-01T00:00:04.000Z"}
		if len(got) != len(want) {
			t.Fatalf("deliveries %v, want %v", got, want)
		}
		for i, d := range got {
			if s := d.Kind + " " + d.Channel + " " + d.RecordedAt; s != want[i] || d.SessionID != "s1" || d.SubjectID != "r1" {
				t.Errorf("delivery %d = %+v, want %s", i, d, want[i])
			}
		}
		if got[2].Note == nil || *got[2].Note != "done" {
			t.Errorf("the mark's note: %v", got[2].Note)
		}
		return nil
	})
}

func delivery(kind, channel, at string) store.Delivery {
	d := store.Delivery{WorkspaceID: "ws_d", SessionID: "s1", SubjectKind: "report", SubjectID: "r1", Kind: kind,
		Channel: channel, RecordedAt: at}
	if kind != "announced" {
		note := "done"
		d.Note = &note
	}
	return d
}
