package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// benchOfferStore is a bound session in a workspace whose handoffs table
// holds history: 2,000 answered or expired offers between other actors,
// 10 live offers to the session and 10 it made, the rows a long-lived
// workspace's polls and wake checks read.
func benchOfferStore(b *testing.B) (*store.Store, store.StartedSession) {
	b.Helper()
	st, ss := benchSession(b)
	ctx := context.Background()
	ws, me := ss.Session.WorkspaceID, ss.Session.ID
	var tasks []string
	for i := range 50 {
		tasks = append(tasks, fmt.Sprintf("task_%d", i))
	}
	for i := range 10 {
		tasks = append(tasks, fmt.Sprintf("task_to_%d", i), fmt.Sprintf("task_from_%d", i))
	}
	for _, id := range tasks {
		if _, err := st.CreateTask(ctx, store.LabelActor("bench"), store.CreateTaskInput{WorkspaceID: ws,
			IdempotencyKey: "c" + id, TaskID: ptr(id), Title: "bench " + id}); err != nil {
			b.Fatal(err)
		}
	}
	const insert = `INSERT INTO handoffs (id, workspace_id, task_id, from_actor, to_actor, summary, status, offered_at,
expires_at, resolved_at, from_session_id, to_session_id) VALUES (?, ?, ?, ?, ?, 'bench', ?, ?, ?, ?, ?, ?)`
	err := rawWrite(ctx, st, func(tx *Tx) error {
		statuses := []string{"accepted", "declined", "expired"}
		for i := range 2000 {
			at := fmt.Sprintf("2026-01-01T00:%02d:%02d.000Z", i/60%60, i%60)
			if _, err := tx.ExecContext(ctx, insert, fmt.Sprintf("handoff_old_%04d", i), ws, fmt.Sprintf("task_%d", i%50),
				fmt.Sprintf("actor_%d", i%7), fmt.Sprintf("actor_%d", (i+1)%7), statuses[i%3], at, at, at, nil, nil); err != nil {
				return err
			}
		}
		for i := range 10 {
			at := fmt.Sprintf("2026-02-01T00:00:%02d.000Z", i)
			if _, err := tx.ExecContext(ctx, insert, fmt.Sprintf("handoff_to_%02d", i), ws, fmt.Sprintf("task_to_%d", i),
				"alice", "bench", "pending", at, "2999-01-01T00:00:00.000Z", nil, "session_alice", me); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, insert, fmt.Sprintf("handoff_from_%02d", i), ws, fmt.Sprintf("task_from_%d", i),
				"bench", "alice", "pending", at, "2999-01-01T00:00:00.000Z", nil, me, "session_alice"); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return st, ss
}

// BenchmarkNextWithOfferHistory measures one session poll (elapsed-offer
// sweep and the offers addressed to the session) over a handoffs table
// with history, nothing new to read.
func BenchmarkNextWithOfferHistory(b *testing.B) {
	st, ss := benchOfferStore(b)
	ctx := context.Background()
	cred := benchCred(ss)
	b.ReportAllocs()
	for b.Loop() {
		next, err := st.NextForSession(ctx, cred, nil, 20)
		if err != nil || len(next.HandoffOffers) != 10 {
			b.Fatalf("poll: %d offers, %v", len(next.HandoffOffers), err)
		}
	}
}

// BenchmarkWakeWithOfferHistory measures one wake snapshot (pending
// offers to the session and the ids of those it made) over the same
// table, on an open store.
func BenchmarkWakeWithOfferHistory(b *testing.B) {
	st, ss := benchOfferStore(b)
	ctx := context.Background()
	cred := benchCred(ss)
	b.ReportAllocs()
	for b.Loop() {
		snap, err := st.WakeForSession(ctx, cred, nil, 500)
		if err != nil || len(snap.PendingOffers) != 10 || len(snap.OwnOffers) != 10 {
			b.Fatalf("wake: %d pending, %d own, %v", len(snap.PendingOffers), len(snap.OwnOffers), err)
		}
	}
}
