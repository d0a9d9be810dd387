package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// benchJoin joins n presence hints to the session's workspace and returns
// them in joining order.
func benchJoin(b *testing.B, st *store.Store, ss store.StartedSession, n int, prefix string) []store.Presence {
	b.Helper()
	out := make([]store.Presence, 0, n)
	for i := 0; i < n; i++ {
		p, err := st.JoinPresence(context.Background(), store.JoinInput{WorkspaceID: ss.Workspace.ID,
			ClientInstanceID: fmt.Sprintf("%s-%d", prefix, i), ActorLabel: "agent", RuntimeKind: "codex",
			Capabilities: []string{"code.review"}})
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// benchLeave marks every hint left.
func benchLeave(b *testing.B, st *store.Store, hints []store.Presence, prefix string) {
	b.Helper()
	for i, p := range hints {
		if _, err := st.LeavePresence(context.Background(), store.PresenceUpdate{SessionID: p.ID,
			IdempotencyKey: fmt.Sprintf("%s-%d", prefix, i), ExpectedVersion: p.Version}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJoinPresence measures collab_session_join of a new client
// instance: the client lookup, the insert and the read back.
func BenchmarkJoinPresence(b *testing.B) {
	st, ss := benchSession(b)
	b.ResetTimer()
	benchJoin(b, st, ss, b.N, "join")
}

// BenchmarkHeartbeatPresence measures one heartbeat of a hint: the read,
// the receipt lookup, the versioned write, the read back and the receipt.
func BenchmarkHeartbeatPresence(b *testing.B) {
	st, ss := benchSession(b)
	p := benchJoin(b, st, ss, 1, "beat")[0]
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := st.HeartbeatPresence(ctx, store.PresenceUpdate{SessionID: p.ID,
			IdempotencyKey: fmt.Sprintf("beat-%d", i), ExpectedVersion: p.Version + int64(i)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLeavePresence measures one leave of a live hint.
func BenchmarkLeavePresence(b *testing.B) {
	st, ss := benchSession(b)
	hints := benchJoin(b, st, ss, b.N, "leaver")
	b.ResetTimer()
	benchLeave(b, st, hints, "leave")
}

// BenchmarkListLivePresence measures collab_session_list with presence
// "live" out of 300 hints, 150 of which left: the state filter and the
// limit are applied by the engine.
func BenchmarkListLivePresence(b *testing.B) {
	st, ss := benchSession(b)
	hints := benchJoin(b, st, ss, 300, "seed")
	benchLeave(b, st, hints[:150], "gone")
	live := "live"
	limit := int64(20)
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		list, err := st.ListPresence(ctx, ss.Workspace.ID, &live, &limit)
		if err != nil || len(list) != 20 {
			b.Fatalf("listed %d live hints, %v", len(list), err)
		}
	}
}

// BenchmarkViewPresence measures the web view's read of one workspace
// holding 300 presence hints (every hint, most recently seen first, among
// the view's other lists).
func BenchmarkViewPresence(b *testing.B) {
	st, ss := benchSession(b)
	benchJoin(b, st, ss, 300, "seen")
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, err := st.View(ctx, ss.Workspace.ID)
		if err != nil || len(v.Presence) != 300 {
			b.Fatalf("viewed %d hints, %v", len(v.Presence), err)
		}
	}
}
