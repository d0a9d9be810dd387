package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// Clock readings for the task checks, in journal form (they order as
// strings): before, at and after clock.
const (
	anHourBefore  = "2025-12-31T23:00:00.000Z"
	later         = "2026-01-01T00:00:01.000Z"
	anHourAfter   = "2026-01-01T01:00:00.000Z"
	twoHoursAfter = "2026-01-01T02:00:00.000Z"
)

// taskFixture is a workspace of a repository with one worktree and one
// active session in it, so session-plane rows have the rows they refer to.
type taskFixture struct {
	e          store.Engine
	ws, repo   string
	worktreeID string
	sessionID  string
	guards     int
}

func newTaskFixture(t *testing.T, e store.Engine, ws, repo string) *taskFixture {
	t.Helper()
	f := &taskFixture{e: e, ws: ws, repo: repo, worktreeID: "wt_" + ws, sessionID: "session_" + ws}
	ctx := context.Background()
	err := e.Write(ctx, func(tx store.Tx) error {
		if err := tx.CreateWorkspace(ctx, store.NewWorkspace{ID: ws, EpochID: "epoch_" + ws, RootPath: "/enginetest/" + ws,
			Name: ws, RepositoryKey: repo, CreatedAt: clock}); err != nil {
			return err
		}
		id := gitstate.Identity{RootPath: "/enginetest/" + ws + "/wt", RepositoryKey: repo, Fingerprint: "path:" + ws,
			WorktreeID: f.worktreeID}
		if err := tx.AddWorktree(ctx, ws, store.WorktreeFacts{Identity: id}, clock); err != nil {
			return err
		}
		return tx.InsertSession(ctx, store.NewSession{ID: f.sessionID, WorkspaceID: ws, WorktreeID: f.worktreeID,
			Actor: "agent-" + ws, TokenHash: "hash-" + ws, JoinedAt: clock,
			Cursor: journal.Anchor{EpochID: "epoch_" + ws, Hash: journal.GenesisHash}})
	})
	if err != nil {
		t.Fatalf("workspace %s: %v", ws, err)
	}
	return f
}

// write runs fn in one write transaction holding the write guard the
// session plane needs, the way the rules do.
func (f *taskFixture) write(fn func(ctx context.Context, tx store.Tx) error) error {
	ctx := context.Background()
	return f.e.Write(ctx, func(tx store.Tx) error {
		f.guards++
		release, err := tx.TakeWriteGuard(ctx, fmt.Sprintf("enginetest-%s-%d", f.ws, f.guards))
		if err != nil {
			return err
		}
		if err := fn(ctx, tx); err != nil {
			return err
		}
		return release(ctx)
	})
}

func (f *taskFixture) mustWrite(t *testing.T, what string, fn func(ctx context.Context, tx store.Tx) error) {
	t.Helper()
	if err := f.write(fn); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// insert creates an open task; sessionPlane tasks are edit tasks that
// need acceptance.
func (f *taskFixture) insert(t *testing.T, id string, scopes []string, sessionPlane bool) {
	t.Helper()
	nt := store.NewTask{ID: id, WorkspaceID: f.ws, Title: "task " + id, PathScopes: scopes, CreatedAt: clock}
	if sessionPlane {
		nt.SessionPlane, nt.WorkMode, nt.CompletionPolicy = true, "edit", store.CompletionAccepted
	}
	f.mustWrite(t, "insert "+id, func(ctx context.Context, tx store.Tx) error { return tx.InsertTask(ctx, nt) })
}

func (f *taskFixture) task(t *testing.T, id string) store.Task {
	t.Helper()
	var got store.Task
	var found bool
	err := f.e.Read(context.Background(), func(tx store.Tx) error {
		var err error
		got, found, err = tx.Task(context.Background(), f.ws, id)
		return err
	})
	if err != nil || !found {
		t.Fatalf("read task %s: found=%v err=%v", id, found, err)
	}
	return got
}

// legacyLease and sessionLease are leases as the rules grant them.
func legacyLease(id, assignee, expires string) store.Lease {
	return store.Lease{ID: id, ExpiresAt: expires, Assignee: assignee}
}

func (f *taskFixture) sessionLease(id, expires string) store.Lease {
	session, worktree := f.sessionID, f.worktreeID
	return store.Lease{ID: id, ExpiresAt: expires, Assignee: "agent-" + f.ws, SessionID: &session, WorktreeID: &worktree,
		BaseCheckpoint: json.RawMessage(`{"head_sha":null,"worktree_id":"` + worktree + `"}`)}
}

// lostClaim is a claimant's refusal: the task it found was no longer the
// open version 1 it had read before its transaction.
type lostClaim struct {
	version  int64
	assignee *string
}

func (l lostClaim) Error() string { return fmt.Sprintf("task moved on to version %d", l.version) }

// contestedClaim has many goroutines claim one task at once, each reading
// and updating it inside one write transaction with the rules' optimistic
// check (still open, still at the version read before). Exactly one wins;
// every loser reads the winner's committed claim and changes nothing.
func contestedClaim(t *testing.T, e store.Engine) {
	defer e.Close()
	f := newTaskFixture(t, e, "ws_contest", "local-path:contest")
	f.insert(t, "task_contested", []string{"src"}, false)
	const claimants = 8
	var wg sync.WaitGroup
	errs := make([]error, claimants)
	start := make(chan struct{})
	for i := 0; i < claimants; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			ctx := context.Background()
			errs[i] = e.Write(ctx, func(tx store.Tx) error {
				task, found, err := tx.Task(ctx, "ws_contest", "task_contested")
				if err != nil {
					return err
				}
				if !found {
					return errors.New("the contested task vanished")
				}
				if task.Version != 1 || task.Status != store.TaskOpen {
					return lostClaim{version: task.Version, assignee: task.Assignee}
				}
				lease := legacyLease(fmt.Sprintf("lease_%d", i), fmt.Sprintf("claimant-%d", i), anHourAfter)
				return tx.UpdateTask(ctx, task, next(task, clock, leasedTo(lease)))
			})
		}(i)
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, err := range errs {
		var lost lostClaim
		switch {
		case err == nil && winner >= 0:
			t.Fatalf("claimants %d and %d both won", winner, i)
		case err == nil:
			winner = i
		case !errors.As(err, &lost):
			t.Fatalf("claimant %d: %v", i, err)
		}
	}
	if winner < 0 {
		t.Fatal("no claimant won")
	}
	want := fmt.Sprintf("claimant-%d", winner)
	for i, err := range errs {
		var lost lostClaim
		if errors.As(err, &lost) && (lost.version != 2 || lost.assignee == nil || *lost.assignee != want) {
			t.Errorf("claimant %d lost to version %d held by %v, want version 2 held by %s", i, lost.version, lost.assignee, want)
		}
	}
	got := f.task(t, "task_contested")
	if got.Version != 2 || got.Status != store.TaskClaimed || got.Assignee == nil || *got.Assignee != want ||
		got.LeaseID == nil || *got.LeaseID != fmt.Sprintf("lease_%d", winner) {
		t.Fatalf("after the race the task is %s v%d held by %v with lease %v; want claimed v2 by %s",
			got.Status, got.Version, got.Assignee, got.LeaseID, want)
	}
}

// reservingTasksInOrder builds claims of every kind across two
// workspaces of one repository (created in the opposite order to their
// ids) and one of another repository: the candidates are listed in the
// documented order.
func reservingTasksInOrder(t *testing.T, e store.Engine) {
	defer e.Close()
	second := newTaskFixture(t, e, "ws_b", "local-git:shared") // created first
	first := newTaskFixture(t, e, "ws_a", "local-git:shared")
	other := newTaskFixture(t, e, "ws_other", "local-git:elsewhere")
	ctx := context.Background()
	claim := func(f *taskFixture, id string, l store.Lease) {
		t.Helper()
		f.insert(t, id, []string{id + "/"}, l.SessionID != nil)
		f.mustWrite(t, "claim "+id, func(ctx context.Context, tx store.Tx) error { return f.update(ctx, tx, id, clock, leasedTo(l)) })
	}
	claim(second, "task_late", legacyLease("l1", "x", twoHoursAfter))
	claim(second, "task_z", legacyLease("l2", "x", anHourAfter)) // same expiry: insertion order, not id order
	claim(second, "task_y", legacyLease("l3", "x", anHourAfter))
	claim(second, "task_lapsed", legacyLease("l4", "x", anHourBefore))  // expired legacy lease: not reserving
	claim(second, "task_lost", second.sessionLease("l5", anHourBefore)) // expired session lease: reserving
	second.insert(t, "task_review", []string{"task_review/"}, true)     // awaiting review: reserving
	second.mustWrite(t, "report", func(ctx context.Context, tx store.Tx) error { return reported(ctx, tx, second, "task_review") })
	second.insert(t, "task_open", []string{"task_open/"}, false) // open: not reserving
	claim(first, "task_a", legacyLease("l6", "y", anHourAfter))
	readOnly := store.NewTask{ID: "task_ro", WorkspaceID: first.ws, Title: "ro", PathScopes: []string{"ro/"}, CreatedAt: clock,
		SessionPlane: true, WorkMode: "read_only", CompletionPolicy: store.CompletionReported}
	first.mustWrite(t, "read-only task", func(ctx context.Context, tx store.Tx) error {
		if err := tx.InsertTask(ctx, readOnly); err != nil {
			return err
		}
		return first.update(ctx, tx, "task_ro", clock, leasedTo(first.sessionLease("l7", anHourAfter)))
	})
	claim(other, "task_far", legacyLease("l8", "z", anHourAfter))

	var got []store.Task
	err := e.Read(ctx, func(tx store.Tx) error {
		var err error
		got, err = tx.ReservingTasks(ctx, "local-git:shared")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range got {
		order = append(order, r.WorkspaceID+"/"+r.ID)
	}
	// Every claimed or review-pending task of the repository, expired and
	// read-only ones included (the rules decide which reserve), in
	// workspace insertion order, then task insertion order.
	want := []string{"ws_b/task_late", "ws_b/task_z", "ws_b/task_y", "ws_b/task_lapsed", "ws_b/task_lost", "ws_b/task_review",
		"ws_a/task_a", "ws_a/task_ro"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("reserving tasks %v, want %v", order, want)
	}
	if r := got[4]; str(r.Assignee) != "agent-ws_b" || str(r.AssigneeSessionID) != second.sessionID ||
		str(r.LeaseExpiresAt) != anHourBefore || !reflect.DeepEqual(r.PathScopes, []string{"task_lost/"}) {
		t.Fatalf("reserving task fields %+v", r)
	}
}

// noReservingTasksIsEmpty: a repository nobody claims in lists an empty,
// non-nil slice, and so does a task created without lists.
func noReservingTasksIsEmpty(t *testing.T, e store.Engine) {
	defer e.Close()
	f := newTaskFixture(t, e, "ws_empty", "local-path:empty")
	f.mustWrite(t, "insert", func(ctx context.Context, tx store.Tx) error {
		return tx.InsertTask(ctx, store.NewTask{ID: "task_bare", WorkspaceID: f.ws, Title: "bare", CreatedAt: clock})
	})
	if got := f.task(t, "task_bare"); got.Dependencies == nil || got.PathScopes == nil || len(got.Dependencies)+len(got.PathScopes) != 0 {
		t.Fatalf("a task created with nil lists reads back %#v and %#v, want two empty lists", got.Dependencies, got.PathScopes)
	}
	for _, repo := range []string{"local-path:empty", "local-path:nobody"} {
		err := e.Read(context.Background(), func(tx store.Tx) error {
			got, err := tx.ReservingTasks(context.Background(), repo)
			if err == nil && (got == nil || len(got) != 0) {
				err = fmt.Errorf("reserving tasks of %s: %#v, want an empty non-nil list", repo, got)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// taskRecordsStoredOnce: artifacts, recoveries and reviews are stored as
// given and a second row with the same identity is refused.
func taskRecordsStoredOnce(t *testing.T, e store.Engine) {
	defer e.Close()
	f := newTaskFixture(t, e, "ws_records", "local-path:records")
	f.insert(t, "task_r", []string{"src"}, true)
	sha, label := "ab", "build log"
	art := store.Artifact{ID: "artifact_1", TaskID: "task_r", Kind: "file", URI: "file:///log", SHA256: &sha, Label: &label,
		AttachedBy: "agent", AttachedAt: clock, AttachedBySessionID: &f.sessionID}
	recovery := store.LeaseRecovery{ID: "recovery_1", WorkspaceID: f.ws, TaskID: "task_r", PriorLeaseID: "lease_old",
		RecoveredBySessionID: f.sessionID, Action: "release", Note: "lost", RecoveredAt: clock, EventSequence: 1}
	review := store.Review{ID: "review_1", WorkspaceID: f.ws, TaskID: "task_r", ReviewGeneration: 1, Outcome: "accepted",
		Summary: "ok", ReviewerActor: "rev", ReviewerSessionID: f.sessionID, CreatedAt: clock, EventSequence: 2}
	inserts := []struct {
		name string
		do   func(ctx context.Context, tx store.Tx) error
	}{
		{"artifact", func(ctx context.Context, tx store.Tx) error { return tx.InsertArtifact(ctx, f.ws, art) }},
		{"recovery", func(ctx context.Context, tx store.Tx) error { return tx.InsertRecovery(ctx, recovery) }},
		{"review", func(ctx context.Context, tx store.Tx) error { return tx.InsertReview(ctx, review) }},
	}
	for _, in := range inserts {
		f.mustWrite(t, in.name, in.do)
		if err := f.write(in.do); err == nil {
			t.Errorf("a second %s with the same identity was stored", in.name)
		}
	}
	var arts []store.Artifact
	err := e.Read(context.Background(), func(tx store.Tx) error {
		var err error
		arts, err = tx.Artifacts(context.Background(), f.ws, "task_r")
		return err
	})
	if err != nil || len(arts) != 1 || !reflect.DeepEqual(arts[0], art) {
		t.Fatalf("artifacts %+v (%v), want exactly %+v", arts, err, art)
	}
}
