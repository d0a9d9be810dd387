// Package storetest checks that a storage engine keeps the guarantees the
// storage port of package store states, through the port alone, so that
// every engine (SQLite and PostgreSQL) runs the same checks.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// Open returns a new, empty engine for one test; the suite closes it.
type Open func(t *testing.T) store.Engine

// Run runs every check against engines made by open.
func Run(t *testing.T, open Open) {
	t.Run("AppendExtendsTheChain", func(t *testing.T) { appendExtendsTheChain(t, open(t)) })
	t.Run("RefusedWriteLeavesNothing", func(t *testing.T) { refusedWriteLeavesNothing(t, open(t)) })
	t.Run("ConcurrentWritersKeepSequencesContiguous", func(t *testing.T) { concurrentWriters(t, open(t)) })
	t.Run("ConcurrentWritersFailAlone", func(t *testing.T) { concurrentWritersFailAlone(t, open(t)) })
	t.Run("ReceiptsAreUniquePerScope", func(t *testing.T) { receiptsUniquePerScope(t, open(t)) })
	t.Run("ContestedClaimHasOneWinner", func(t *testing.T) { contestedClaim(t, open(t)) })
	t.Run("TaskUpdateStoresRows", func(t *testing.T) { taskUpdateStoresRows(t, open(t)) })
	t.Run("ReservingTasksInDocumentedOrder", func(t *testing.T) { reservingTasksInOrder(t, open(t)) })
	t.Run("NoReservingTasksIsEmptyNotNil", func(t *testing.T) { noReservingTasksIsEmpty(t, open(t)) })
	t.Run("TaskRecordsAreStoredOnce", func(t *testing.T) { taskRecordsStoredOnce(t, open(t)) })
	t.Run("UnknownWorkspaceHasNoHead", func(t *testing.T) { unknownWorkspace(t, open(t)) })
	t.Run("ReportsFilteredInSequenceOrder", func(t *testing.T) { reportsFilteredInSequenceOrder(t, open(t)) })
	t.Run("ReportRoundTrip", func(t *testing.T) { reportRoundTrip(t, open(t)) })
	t.Run("ReportsFilteredByRelationAndTarget", func(t *testing.T) { reportsFilteredByRelationAndTarget(t, open(t)) })
	t.Run("RolledBackReportIsNotFound", func(t *testing.T) { rolledBackReportIsNotFound(t, open(t)) })
	t.Run("DecisionsNewestFirst", func(t *testing.T) { decisionsNewestFirst(t, open(t)) })
	t.Run("EvidenceConfinedToWorkspace", func(t *testing.T) { evidenceConfinedToWorkspace(t, open(t)) })
	t.Run("PresencesFilteredByState", func(t *testing.T) { presencesFilteredByState(t, open(t)) })
	t.Run("PresenceKeysFindOneRow", func(t *testing.T) { presenceKeysFindOneRow(t, open(t)) })
	t.Run("PresenceUpdatesWriteChangedColumns", func(t *testing.T) { presenceUpdatesWriteChangedColumns(t, open(t)) })
	t.Run("ClientInstanceIsUniquePerWorkspace", func(t *testing.T) { clientInstanceIsUniquePerWorkspace(t, open(t)) })
	t.Run("WorkspacesFilteredInCreationOrder", func(t *testing.T) { workspacesFilteredInCreationOrder(t, open(t)) })
	t.Run("WorktreeWritesChangedColumns", func(t *testing.T) { worktreeWritesChangedColumns(t, open(t)) })
	t.Run("TasksOfAViewer", func(t *testing.T) { tasksOfAViewer(t, open(t)) })
	t.Run("TasksStillInPlay", func(t *testing.T) { tasksStillInPlay(t, open(t)) })
	t.Run("NewestTasksAndCounts", func(t *testing.T) { newestTasksAndCounts(t, open(t)) })
	t.Run("EventPagesKeepTheirBoundaries", func(t *testing.T) { pageBoundaries(t, open(t)) })
	t.Run("EventTypesAnchorsAndHeads", func(t *testing.T) { eventTypesAndAnchors(t, open(t)) })
	t.Run("EventBytesRoundTrip", func(t *testing.T) { payloadsRoundTrip(t, open(t)) })
	t.Run("EachEventAfterStopsAtTheFirstError", func(t *testing.T) { eachEventStops(t, open(t)) })
	t.Run("ReadIsOneSnapshot", func(t *testing.T) { readIsOneSnapshot(t, open(t)) })
	t.Run("ViewsListInTheirOrder", func(t *testing.T) { viewsListInOrder(t, open(t)) })
	t.Run("SessionWritesAreVersioned", func(t *testing.T) { sessionWritesAreVersioned(t, open(t)) })
	t.Run("HandoffRowsStoreAndFilter", func(t *testing.T) { handoffRowsStoreAndFilter(t, open(t)) })
	t.Run("ViewListsAreNeverNil", func(t *testing.T) { viewListsAreNeverNil(t, open(t)) })
	t.Run("ChainsStreamEveryEvent", func(t *testing.T) { chainsStreamEveryEvent(t, open(t)) })
	t.Run("DeliveriesKeptOnceAndMarksFinal", func(t *testing.T) { deliveriesKeptOnceAndMarksFinal(t, open(t)) })
	t.Run("SessionHostsReplacedPerSession", func(t *testing.T) { sessionHostsReplacedPerSession(t, open(t)) })
}

const clock = "2026-01-01T00:00:00.000Z"

// createWorkspace makes a workspace with an empty journal.
func createWorkspace(t *testing.T, e store.Engine, id string) {
	t.Helper()
	err := e.Write(context.Background(), func(tx store.Tx) error {
		return tx.CreateWorkspace(context.Background(), store.NewWorkspace{ID: id, EpochID: "epoch_" + id,
			RootPath: "/enginetest/" + id, Name: id, RepositoryKey: "local-path:" + id, CreatedAt: clock})
	})
	if err != nil {
		t.Fatalf("create workspace %s: %v", id, err)
	}
}

// appendOne appends one event at the head, the way the rules do.
func appendOne(ctx context.Context, tx store.Tx, workspaceID, id string) (journal.Event, error) {
	h, found, err := tx.Head(ctx, workspaceID)
	if err != nil {
		return journal.Event{}, err
	}
	if !found {
		return journal.Event{}, fmt.Errorf("workspace %s has no head", workspaceID)
	}
	e := journal.Event{WorkspaceID: workspaceID, EpochID: h.EpochID, Sequence: h.Sequence + 1, ID: "event_" + id,
		Protocol: journal.ProtocolV2, Type: string(journal.KindTaskProgressed), EntityID: "task_1", Actor: "enginetest",
		OccurredAt: clock, PayloadJSON: []byte(`{"message":"` + id + `"}`), PrevHash: h.Hash}
	var hasher journal.Hasher
	if e.Hash, err = hasher.Hash(&e); err != nil {
		return journal.Event{}, err
	}
	return e, tx.Append(ctx, &e)
}

func head(t *testing.T, e store.Engine, workspaceID string) store.JournalHead {
	t.Helper()
	var h store.JournalHead
	err := e.Read(context.Background(), func(tx store.Tx) error {
		var err error
		h, _, err = tx.Head(context.Background(), workspaceID)
		return err
	})
	if err != nil {
		t.Fatalf("read head: %v", err)
	}
	return h
}

func verify(t *testing.T, e store.Engine, workspaceID string) {
	t.Helper()
	ok, found, err := VerifyChain(context.Background(), e, workspaceID)
	if err != nil || !found || !ok {
		t.Fatalf("chain of %s: ok=%v found=%v err=%v", workspaceID, ok, found, err)
	}
}

func appendExtendsTheChain(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_chain")
	if h := head(t, e, "ws_chain"); h.Sequence != 0 || h.Hash != journal.GenesisHash {
		t.Fatalf("new workspace head %+v, want sequence 0 at genesis", h)
	}
	var last journal.Event
	for i := 1; i <= 3; i++ {
		err := e.Write(context.Background(), func(tx store.Tx) error {
			var err error
			last, err = appendOne(context.Background(), tx, "ws_chain", strconv.Itoa(i))
			return err
		})
		if err != nil {
			t.Fatalf("append %d: %v", i, err)
		}
	}
	if h := head(t, e, "ws_chain"); h.Sequence != 3 || h.Hash != last.Hash {
		t.Fatalf("head %+v, want sequence 3 at %s", h, last.Hash)
	}
	verify(t, e, "ws_chain")
}

func refusedWriteLeavesNothing(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_refused")
	refusal := errors.New("refused after the append")
	err := e.Write(context.Background(), func(tx store.Tx) error {
		if _, err := appendOne(context.Background(), tx, "ws_refused", "x"); err != nil {
			return err
		}
		scope := store.ReceiptScope{WorkspaceID: "ws_refused", Actor: "a", Key: "k"}
		if err := tx.InsertReceipt(context.Background(), scope, store.Receipt{Operation: "op", RequestHash: "h"}, clock); err != nil {
			return err
		}
		return refusal
	})
	if !errors.Is(err, refusal) {
		t.Fatalf("write returned %v, want the refusal", err)
	}
	if h := head(t, e, "ws_refused"); h.Sequence != 0 {
		t.Fatalf("a refused write moved the head to %d", h.Sequence)
	}
	err = e.Read(context.Background(), func(tx store.Tx) error {
		_, found, err := tx.FindReceipt(context.Background(), store.ReceiptScope{WorkspaceID: "ws_refused", Actor: "a", Key: "k"})
		if err == nil && found {
			err = errors.New("a refused write left its receipt")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// concurrentWriters appends from many goroutines at once: the head is
// serialised, so every append lands and the chain stays linear.
func concurrentWriters(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_race")
	const writers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				errs <- e.Write(context.Background(), func(tx store.Tx) error {
					_, err := appendOne(context.Background(), tx, "ws_race", fmt.Sprintf("%d-%d", w, i))
					return err
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("concurrent append: %v", err)
		}
	}
	if h := head(t, e, "ws_race"); h.Sequence != writers*each {
		t.Fatalf("head at %d after %d appends", h.Sequence, writers*each)
	}
	verify(t, e, "ws_race")
}

func receiptsUniquePerScope(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_receipts")
	ctx := context.Background()
	scope := store.ReceiptScope{WorkspaceID: "ws_receipts", Actor: "session:s1", Key: "key-1"}
	want := store.Receipt{Operation: "task.create.v2", RequestHash: "abc", Response: []byte(`{"task":{"id":"t"}}`)}
	insert := func(s store.ReceiptScope) error {
		return e.Write(ctx, func(tx store.Tx) error { return tx.InsertReceipt(ctx, s, want, clock) })
	}
	if err := insert(scope); err != nil {
		t.Fatalf("first receipt: %v", err)
	}
	if err := insert(scope); err == nil {
		t.Fatal("a second receipt for the same (workspace, actor, key) was accepted")
	}
	if err := insert(store.ReceiptScope{WorkspaceID: "ws_receipts", Actor: "session:s2", Key: "key-1"}); err != nil {
		t.Fatalf("the same key for another actor: %v", err)
	}
	err := e.Read(ctx, func(tx store.Tx) error {
		got, found, err := tx.FindReceipt(ctx, scope)
		if err != nil {
			return err
		}
		if !found || got.Operation != want.Operation || got.RequestHash != want.RequestHash || string(got.Response) != string(want.Response) {
			return fmt.Errorf("found %v %+v, want %+v", found, got, want)
		}
		_, found, err = tx.FindReceipt(ctx, store.ReceiptScope{WorkspaceID: "ws_receipts", Actor: "label", Key: "key-1"})
		if err == nil && found {
			err = errors.New("a receipt was found under a scope nobody wrote")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func unknownWorkspace(t *testing.T, e store.Engine) {
	defer e.Close()
	ok, found, err := VerifyChain(context.Background(), e, "ws_nobody")
	if err != nil || found || ok {
		t.Fatalf("VerifyChain of an unknown workspace: ok=%v found=%v err=%v", ok, found, err)
	}
	err = e.Read(context.Background(), func(tx store.Tx) error {
		_, found, err := tx.Head(context.Background(), "ws_nobody")
		if err == nil && found {
			err = errors.New("an unknown workspace has a head")
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
