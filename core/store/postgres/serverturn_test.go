package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/agenttool/collab/core/store"
)

// TestQueuedWritersOfTwoEnginesTakeTurnsInTheServer shows the server's
// queue at work: once a workspace's queued writers have met writers of
// other processes, an engine's queued attempt waits, before its
// transaction begins, for the turn another engine holds, and runs as soon
// as that turn is given back.
func TestQueuedWritersOfTwoEnginesTakeTurnsInTheServer(t *testing.T) {
	ctx := context.Background()
	url := freshDatabase(t)
	holder, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	waiter, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer waiter.Close()

	_, release, err := holder.serverTurn(ctx, "ws_turns")
	if err != nil {
		t.Fatal(err)
	}
	waiter.turns.metAcross("ws_turns")
	ran := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := waiter.writeOnce(ctx, "ws_turns", func(store.Tx) error { close(ran); return nil }, time.Now().Add(time.Minute))
		done <- err
	}()

	// The waiter's connection shows up in the server waiting for the
	// advisory lock; until then nothing of its transaction may run.
	for waiting := 0; waiting == 0; {
		select {
		case <-ran:
			t.Fatal("the queued attempt ran while another engine held the workspace's turn")
		case err := <-done:
			t.Fatalf("the queued attempt ended while another engine held the workspace's turn: %v", err)
		default:
		}
		if err := holder.pool.QueryRowContext(ctx, `SELECT count(*) FROM pg_locks
WHERE locktype = 'advisory' AND classid = $1::oid AND NOT granted`, int64(uint32(turnClass))).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	release()
	if err := <-done; err != nil {
		t.Fatalf("the queued attempt failed once the turn was given back: %v", err)
	}
	select {
	case <-ran:
	default:
		t.Fatal("the queued attempt ended without running")
	}

	// Without the sign of other processes, a queued attempt does not ask
	// the server: it runs while another engine holds the turn.
	_, release, err = holder.serverTurn(ctx, "ws_alone")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if _, err := waiter.writeOnce(ctx, "ws_alone", func(store.Tx) error { return nil }, time.Now().Add(time.Minute)); err != nil {
		t.Fatalf("a queued attempt with no sign of other processes: %v", err)
	}
}
