package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// settleClock is the time every row of these tests carries.
const settleClock = "2026-01-01T00:00:00.000Z"

// errAbandoned rolls a test transaction back after it has done its writes,
// as a COMMIT that never reached the disk leaves it.
var errAbandoned = errors.New("abandoned on purpose")

// The answers settle can give, as Write acts on them.
const (
	wantSuccess  = "success"
	wantRunAgain = "run again"
	wantUnknown  = "write_outcome_unknown"
)

// TestSettleDecidesALostCommitByWhatTheTransactionWrote checks the answer
// for a COMMIT whose connection was lost, for each thing a transaction can
// have written: its own event or receipt in the journal is success;
// another writer's event at the same sequence (what a reissued
// transaction id after a crash used to be mistaken for) or another
// transaction's receipt for the same key is not, and the write runs
// again; writes that are harmless to repeat run again; anything else is
// write_outcome_unknown, never a guess.
func TestSettleDecidesALostCommitByWhatTheTransactionWrote(t *testing.T) {
	ctx := context.Background()
	e := openSettleEngine(t, false)
	scope := func(key string) store.ReceiptScope {
		return store.ReceiptScope{WorkspaceID: "ws_settle", Actor: "agent", Key: key}
	}
	receipt := func(key, response string) func(tx store.Tx) error {
		return func(tx store.Tx) error {
			return tx.InsertReceipt(ctx, scope(key), store.Receipt{Operation: "report.append.v2", RequestHash: "h",
				Response: []byte(response)}, settleClock)
		}
	}
	for _, c := range []struct {
		name string
		// lost is the transaction whose COMMIT lost its connection, and
		// whether it committed; after runs, committed, before settle asks.
		lost      func(tx store.Tx) error
		committed bool
		after     func(tx store.Tx) error
		want      string
	}{
		{name: "its event is in the journal", lost: appendSettleEvent("mine-1"), committed: true, want: wantSuccess},
		{name: "another writer's event holds its sequence", lost: appendSettleEvent("mine-2"),
			after: appendSettleEvent("theirs-2"), want: wantRunAgain},
		{name: "no event at its sequence", lost: appendSettleEvent("mine-3"), want: wantRunAgain},
		{name: "its receipt is in the journal", lost: receipt("key-4", `{"mine":4}`), committed: true, want: wantSuccess},
		{name: "another transaction's receipt holds its key", lost: receipt("key-5", `{"mine":5}`),
			after: receipt("key-5", `{"theirs":5}`), want: wantRunAgain},
		{name: "no receipt for its key", lost: receipt("key-6", `{"mine":6}`), want: wantRunAgain},
		{name: "only a session's last-seen time", lost: func(tx store.Tx) error {
			none := store.CoordinationSession{ID: "session_none"}
			seen := none
			seen.LastSeenAt = settleClock
			_, err := tx.UpdateSession(ctx, none, seen)
			return err
		}, committed: true, want: wantRunAgain},
		{name: "only a worktree's observed Git state and last-seen time", lost: func(tx store.Tx) error {
			none := store.Worktree{ID: "worktree_none"}
			seen, branch := none, "main"
			seen.Branch, seen.LastSeenAt = &branch, settleClock
			return tx.UpdateWorktree(ctx, none, seen)
		}, committed: true, want: wantRunAgain},
		{name: "nothing written", lost: func(tx store.Tx) error {
			_, _, err := tx.Workspace(ctx, "ws_settle")
			return err
		}, committed: true, want: wantRunAgain},
		{name: "a cursor moved, with no event or receipt", lost: func(tx store.Tx) error {
			none := store.CoordinationSession{ID: "session_none"}
			moved := none
			moved.Cursor, moved.CursorVersion, moved.LastSeenAt = journal.Anchor{EpochID: "epoch_settle", Sequence: 1, Hash: "h"}, 1, settleClock
			_, err := tx.UpdateSession(ctx, none, moved)
			return err
		}, committed: true, want: wantUnknown},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := attemptKeepingWitness(t, e, c.committed, c.lost)
			if c.after != nil {
				attemptKeepingWitness(t, e, true, c.after)
			}
			got := settleAnswer(e.settle(ctx, w, errors.New("commit: unexpected EOF"), time.Now().Add(time.Minute)))
			if got != c.want {
				t.Errorf("settled as %s, want %s", got, c.want)
			}
		})
	}
}

// TestSettleWaitsForATransactionStillCommitting loses the connection of a
// write whose backend is still running (an ended connection, not a
// crash): settle waits until that transaction ends and answers by its
// outcome, rather than reading the journal before the write lands; also
// on a database whose transactions default to SERIALIZABLE, where a
// lock wait then a read in one snapshot would fail.
func TestSettleWaitsForATransactionStillCommitting(t *testing.T) {
	ctx := context.Background()
	for i, c := range []struct {
		commits, serializable bool
		want                  string
	}{{true, false, wantSuccess}, {false, false, wantRunAgain}, {true, true, wantSuccess}} {
		t.Run(fmt.Sprintf("commits=%v,serializable-default=%v", c.commits, c.serializable), func(t *testing.T) {
			e := openSettleEngine(t, c.serializable)
			witnessed, done, answer := make(chan witness, 1), make(chan error, 1), make(chan string, 1)
			release := make(chan struct{})
			var once sync.Once
			open := func() { once.Do(func() { close(release) }) }
			defer open()
			go func() {
				done <- e.Write(ctx, func(tx store.Tx) error {
					if err := appendSettleEvent(fmt.Sprintf("slow-%d", i))(tx); err != nil {
						return err
					}
					witnessed <- tx.(*Tx).witness // its head row is locked; the event is held for COMMIT
					<-release
					if !c.commits {
						return errAbandoned
					}
					return nil
				})
			}()
			w := <-witnessed
			go func() {
				answer <- settleAnswer(e.settle(ctx, w, errors.New("commit: unexpected EOF"), time.Now().Add(time.Minute)))
			}()
			if got, early := waitForALockWaiter(t, e, answer); early {
				t.Fatalf("settle answered %s while the transaction was still open", got)
			}
			open()
			if err := <-done; err != nil && !errors.Is(err, errAbandoned) {
				t.Fatalf("the slow write: %v", err)
			}
			if got := <-answer; got != c.want {
				t.Errorf("settled as %s, want %s", got, c.want)
			}
		})
	}
}

// TestSettleOnAJournalItCannotAskIsUnknown checks that a failure to ask is
// never taken for an answer: the outcome stays unknown, and its message
// says to repeat the call with the same idempotency key.
func TestSettleOnAJournalItCannotAskIsUnknown(t *testing.T) {
	ctx := context.Background()
	e := openSettleEngine(t, false)
	w := attemptKeepingWitness(t, e, true, appendSettleEvent("asked"))
	e.Close()
	err := e.settle(ctx, w, errors.New("commit: unexpected EOF"), time.Now().Add(time.Minute))
	if settleAnswer(err) != wantUnknown || !strings.Contains(err.Error(), "idempotency_key") {
		t.Errorf("settled as %v, want write_outcome_unknown naming the idempotency key", err)
	}
}

// openSettleEngine opens a fresh journal holding workspace ws_settle, on a
// database whose transactions default to SERIALIZABLE if serializable.
func openSettleEngine(t *testing.T, serializable bool) *Engine {
	t.Helper()
	ctx := context.Background()
	url := freshDatabase(t)
	e, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if serializable {
		// A database's defaults apply to the connections opened after.
		if _, err := e.pool.ExecContext(ctx, "DO $$BEGIN EXECUTE format("+
			"'ALTER DATABASE %I SET default_transaction_isolation = serializable', current_database()); END$$"); err != nil {
			t.Fatal(err)
		}
		e.Close()
		if e, err = Open(ctx, url); err != nil {
			t.Fatal(err)
		}
		var level string
		if err := e.pool.QueryRowContext(ctx, "SHOW default_transaction_isolation").Scan(&level); err != nil || level != "serializable" {
			t.Fatalf("default_transaction_isolation = %q (%v), want serializable", level, err)
		}
	}
	t.Cleanup(func() { e.Close() })
	err = e.Write(ctx, func(tx store.Tx) error {
		return tx.CreateWorkspace(ctx, store.NewWorkspace{ID: "ws_settle", EpochID: "epoch_settle", RootPath: "/settle",
			Name: "settle", RepositoryKey: "local-path:/settle", CreatedAt: settleClock})
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// appendSettleEvent appends one event at ws_settle's head, as the rules do.
func appendSettleEvent(name string) func(tx store.Tx) error {
	return func(tx store.Tx) error {
		ctx := context.Background()
		h, _, err := tx.Head(ctx, "ws_settle")
		if err != nil {
			return err
		}
		ev := journal.Event{WorkspaceID: "ws_settle", EpochID: h.EpochID, Sequence: h.Sequence + 1, ID: "event_" + name,
			Protocol: journal.ProtocolV2, Type: string(journal.KindTaskProgressed), EntityID: "task_1", Actor: "agent",
			OccurredAt: settleClock, PayloadJSON: []byte(`{"message":"` + name + `"}`), PrevHash: h.Hash}
		var hasher journal.Hasher
		if ev.Hash, err = hasher.Hash(&ev); err != nil {
			return err
		}
		return tx.Append(ctx, &ev)
	}
}

// attemptKeepingWitness runs do in one write transaction, commits it or
// rolls it back, and returns the witness the transaction kept.
func attemptKeepingWitness(t *testing.T, e *Engine, commit bool, do func(tx store.Tx) error) witness {
	t.Helper()
	var w witness
	err := e.Write(context.Background(), func(tx store.Tx) error {
		if err := do(tx); err != nil {
			return err
		}
		w = tx.(*Tx).witness
		if !commit {
			return errAbandoned
		}
		return nil
	})
	if err != nil && (commit || !errors.Is(err, errAbandoned)) {
		t.Fatalf("write: %v", err)
	}
	return w
}

// settleAnswer names what Write does with settle's answer err.
func settleAnswer(err error) string {
	var again *lostBeforeCommit
	switch {
	case err == nil:
		return wantSuccess
	case errors.As(err, &again) && rerunnable(err):
		return wantRunAgain
	case IsCommitUnknown(err) && !rerunnable(err):
		return wantUnknown
	}
	return "unexpected: " + err.Error()
}

// waitForALockWaiter returns once a backend of e's database waits for a
// lock, or once settle has answered (early), failing the test if neither
// happens within a minute.
func waitForALockWaiter(t *testing.T, e *Engine, answer <-chan string) (got string, early bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		select {
		case got := <-answer:
			return got, true
		default:
		}
		var n int
		err := e.pool.QueryRow(`SELECT count(*) FROM pg_stat_activity
WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			return "", false
		}
		if time.Now().After(deadline) {
			t.Fatal("settle neither answered nor waited for the open transaction's lock")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
