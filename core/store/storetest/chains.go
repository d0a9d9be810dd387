package storetest

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// chainsStreamEveryEvent checks the verification reads: Journals lists
// every workspace in id order with its head, name and event count; Events
// and ScanEvents give every event of one journal, and only of that one, in
// sequence order with the bytes appended; an unknown workspace has no head.
func chainsStreamEveryEvent(t *testing.T, e store.Engine) {
	ctx := context.Background()
	defer e.Close()
	counts := map[string]int{"ws_b": 700, "ws_a": 3}
	appended := map[string][]journal.Event{}
	for _, ws := range []string{"ws_b", "ws_a"} {
		createWorkspace(t, e, ws)
		err := e.Write(ctx, func(tx store.Tx) error {
			appended[ws] = nil
			for i := range counts[ws] {
				ev, err := appendOne(ctx, tx, ws, ws+"_"+strconv.Itoa(i))
				if err != nil {
					return err
				}
				appended[ws] = append(appended[ws], ev)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("append to %s: %v", ws, err)
		}
	}
	err := e.ReadChains(ctx, func(c store.Chains) error {
		journals, err := c.Journals(ctx)
		if err != nil {
			return err
		}
		if len(journals) != 2 || journals[0].WorkspaceID != "ws_a" || journals[1].WorkspaceID != "ws_b" {
			return fmt.Errorf("journals %+v, want ws_a then ws_b", journals)
		}
		for _, j := range journals {
			last := appended[j.WorkspaceID][counts[j.WorkspaceID]-1]
			if j.Name != j.WorkspaceID || j.EventCount != int64(counts[j.WorkspaceID]) || j.Sequence != last.Sequence || j.Hash != last.Hash {
				return fmt.Errorf("journal %+v does not match what was appended", j)
			}
			h, found, err := c.Head(ctx, j.WorkspaceID)
			if err != nil || !found || h != j.JournalHead {
				return fmt.Errorf("head of %s: %+v %v %v, want %+v", j.WorkspaceID, h, found, err, j.JournalHead)
			}
			var streamed, scanned []journal.Event
			if err := c.Events(ctx, h, func(ev *journal.Event) error { streamed = append(streamed, *ev); return nil }); err != nil {
				return err
			}
			if err := c.ScanEvents(ctx, h, func(ev *journal.Event, rowErr error) error {
				scanned = append(scanned, *ev)
				return rowErr
			}); err != nil {
				return err
			}
			for _, got := range [][]journal.Event{streamed, scanned} {
				if err := sameEvents(got, appended[j.WorkspaceID]); err != nil {
					return fmt.Errorf("%s: %w", j.WorkspaceID, err)
				}
			}
		}
		if _, found, err := c.Head(ctx, "ws_nobody"); err != nil || found {
			return fmt.Errorf("head of an unknown workspace: found=%v err=%v", found, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func sameEvents(got, want []journal.Event) error {
	if len(got) != len(want) {
		return fmt.Errorf("%d events, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.WorkspaceID != w.WorkspaceID || g.EpochID != w.EpochID || g.Sequence != w.Sequence || g.ID != w.ID ||
			g.Protocol != w.Protocol || g.Type != w.Type || g.EntityID != w.EntityID || g.Actor != w.Actor ||
			g.OccurredAt != w.OccurredAt || string(g.PayloadJSON) != string(w.PayloadJSON) || g.PrevHash != w.PrevHash ||
			g.Hash != w.Hash || (g.SessionID == nil) != (w.SessionID == nil) {
			return fmt.Errorf("event %d is %+v, want %+v", i+1, g, w)
		}
	}
	return nil
}

// VerifyChain recomputes workspaceID's journal from genesis as the rules
// do (journal.VerifyChain over what r streams, head and events from one
// snapshot); found is false when there is no such workspace. Engine tests
// use it where they check a journal is intact.
func VerifyChain(ctx context.Context, r store.ChainReader, workspaceID string) (ok, found bool, err error) {
	err = r.ReadChains(ctx, func(c store.Chains) error {
		h, has, err := c.Head(ctx, workspaceID)
		if err != nil || !has {
			return err
		}
		found = true
		ok, err = journal.VerifyChain(store.Stored(ctx, c, h), 0, nil)
		return err
	})
	return ok, found, err
}
