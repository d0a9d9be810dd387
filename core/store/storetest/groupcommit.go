package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// concurrentWritersFailAlone runs many writers at once against two
// workspaces, some of them appending to both and some refusing after
// their append. Whether or not the engine batches concurrent writes into
// one transaction (group commit), a refusal takes back only its own
// write: every accepted append is in the journal, no refused one is, and
// each chain is gapless and verifies, as if the writes had committed one
// after the other.
func concurrentWritersFailAlone(t *testing.T, e store.Engine) {
	defer e.Close()
	ctx := context.Background()
	workspaces := []string{"ws_batch_a", "ws_batch_b"}
	for _, ws := range workspaces {
		createWorkspace(t, e, ws)
	}
	const writers, each = 16, 12
	refusal := errors.New("refused after appending")
	var mu sync.Mutex
	accepted := map[string]map[string]bool{}
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				id := fmt.Sprintf("%d-%d", w, i)
				targets := workspaces[(w+i)%2 : (w+i)%2+1]
				if i%4 == 1 {
					targets = workspaces
				}
				refuse := (w+i)%3 == 0
				err := e.Write(ctx, func(tx store.Tx) error {
					for _, ws := range targets {
						if _, err := appendOne(ctx, tx, ws, ws+"-"+id); err != nil {
							return err
						}
					}
					if refuse {
						return refusal
					}
					return nil
				})
				switch {
				case refuse && !errors.Is(err, refusal):
					t.Errorf("refused write %s returned %v", id, err)
				case !refuse && err != nil:
					t.Errorf("write %s: %v", id, err)
				case !refuse:
					mu.Lock()
					for _, ws := range targets {
						if accepted[ws] == nil {
							accepted[ws] = map[string]bool{}
						}
						accepted[ws]["event_"+ws+"-"+id] = true
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, ws := range workspaces {
		var got []journal.Event
		err := e.Read(ctx, func(tx store.Tx) error {
			var err error
			got, err = tx.Events(ctx, ws, store.EventRange{Limit: writers * each * 2})
			return err
		})
		if err != nil {
			t.Fatalf("read %s: %v", ws, err)
		}
		if len(got) != len(accepted[ws]) {
			t.Errorf("%s holds %d events, %d were accepted", ws, len(got), len(accepted[ws]))
		}
		for k, ev := range got {
			if ev.Sequence != int64(k+1) {
				t.Fatalf("%s: event %d has sequence %d", ws, k+1, ev.Sequence)
			}
			if !accepted[ws][ev.ID] {
				t.Errorf("%s holds %s, which was refused", ws, ev.ID)
			}
		}
		verify(t, e, ws)
	}
}
