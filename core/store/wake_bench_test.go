package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// BenchmarkWakeForSession50k measures what one peek costs after process
// start: open the file read-only, read the session's snapshot from its
// cursor at genesis across a 50,000-event journal (every hundredth event a
// handoff offer, the rest progress notes; only the newest WakeWindow are
// inspected), and close. The goal is ≤ 30 ms.
func BenchmarkWakeForSession50k(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "wake.sqlite")
	st, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		b.Fatal(err)
	}
	started, err := st.StartSession(ctx, store.StartSessionInput{RootPath: b.TempDir(), Actor: "bob"})
	if err != nil {
		b.Fatal(err)
	}
	ws, me := started.Workspace.ID, started.Session.ID
	err = rawWrite(ctx, st, func(tx *Tx) error {
		for i := 1; i < 50000; i++ {
			ne := benchEvent(i)
			if i%100 == 0 {
				ne = store.NewEvent{Type: "handoff.offered", EntityID: fmt.Sprintf("handoff_%d", i), Actor: "alice",
					Payload: map[string]any{"handoff": map[string]any{"to_session_id": me, "task_id": "t", "summary": "yours"}}}
			}
			if _, err := st.AppendEvent(ctx, tx, ws, ne); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	st.Close()
	cred := store.Credential{SessionID: me, Token: started.Token, Generation: 1}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ro, err := backend.Open(ctx, backend.Options{Path: path, ReadOnly: true})
		if err != nil {
			b.Fatal(err)
		}
		snap, err := ro.WakeForSession(ctx, cred, nil, 500)
		if err != nil || snap.Head.Sequence < 50000 || len(snap.Candidates) != 20 || !snap.Windowed {
			b.Fatalf("snapshot: head %d, %d candidates, %v", snap.Head.Sequence, len(snap.Candidates), err)
		}
		ro.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/peek")
}
