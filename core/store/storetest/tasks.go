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
				return tx.ClaimTask(ctx, "ws_contest", "task_contested", lease, clock)
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

// taskWrite is one change of TaskWrites or Leases, applied to a task in a
// given starting state, and what it must leave.
type taskWrite struct {
	name  string
	setup func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error
	apply func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error
	check func(f *taskFixture, got store.Task) error
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func expect(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return fmt.Errorf(format, args...)
}

// claimed puts a session-plane task under a live session lease.
func claimed(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
	return tx.ClaimTask(ctx, f.ws, id, f.sessionLease("lease_held", anHourAfter), clock)
}

// reported puts a claimed task into completed-awaiting-review.
func reported(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
	if err := claimed(ctx, tx, f, id); err != nil {
		return err
	}
	return tx.ReportCompletion(ctx, f.ws, id, store.Completion{ReviewStatus: store.ReviewPending, Summary: "done",
		ResultCheckpoint: json.RawMessage(`{"dirty":false}`), ReportID: "report_1", ReportedBy: "agent-" + f.ws,
		ReportedBySessionID: f.sessionID}, clock)
}

var taskWrites = []taskWrite{
	{name: "LegacyClaimLeavesSessionColumns", apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.ClaimTask(ctx, f.ws, id, legacyLease("lease_l", "label", anHourAfter), later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskClaimed && str(got.Assignee) == "label" && str(got.LeaseID) == "lease_l" &&
			str(got.LeaseExpiresAt) == anHourAfter && got.AssigneeSessionID == nil && got.ClaimWorktreeID == nil &&
			got.BaseCheckpoint == nil, "legacy claim left %+v", got)
	}},
	{name: "SessionClaimClearsEarlierReview", setup: reported, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.ClaimTask(ctx, f.ws, id, f.sessionLease("lease_again", twoHoursAfter), later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskClaimed && str(got.AssigneeSessionID) == f.sessionID &&
			str(got.ClaimWorktreeID) == f.worktreeID && str(got.LeaseID) == "lease_again" && got.ReviewStatus == store.ReviewNotRequired &&
			got.ResultCheckpoint == nil && got.CompletionReportID == nil && got.ReportedBySessionID == nil && got.CompletedAt == nil &&
			got.CoordinationMode == "session_v2" && string(got.BaseCheckpoint) == string(f.sessionLease("", "").BaseCheckpoint),
			"session claim left %+v", got)
	}},
	{name: "RenewMovesOnlyTheExpiry", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.RenewLease(ctx, f.ws, id, twoHoursAfter, later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(str(got.LeaseExpiresAt) == twoHoursAfter && str(got.LeaseID) == "lease_held" && got.Status == store.TaskClaimed,
			"renew left %+v", got)
	}},
	{name: "LegacyReleaseKeepsSessionColumns", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.ReleaseLease(ctx, f.ws, id, false, later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskOpen && got.Assignee == nil && got.LeaseID == nil && got.LeaseExpiresAt == nil &&
			str(got.AssigneeSessionID) == f.sessionID, "legacy release left %+v", got)
	}},
	{name: "SessionReleaseClearsSessionColumns", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.ReleaseLease(ctx, f.ws, id, true, later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskOpen && got.AssigneeSessionID == nil && got.ClaimWorktreeID == nil && got.LeaseID == nil,
			"session release left %+v", got)
	}},
	{name: "ExpireSessionLease", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.ExpireSessionLease(ctx, f.ws, id, later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskOpen && got.Assignee == nil && got.AssigneeSessionID == nil && got.ClaimWorktreeID == nil &&
			got.LeaseExpiresAt == nil, "expiry left %+v", got)
	}},
	{name: "TakeOverKeepsReviewState", apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.TakeOverTask(ctx, f.ws, id, f.sessionLease("lease_taken", anHourAfter), later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskClaimed && str(got.LeaseID) == "lease_taken" && str(got.AssigneeSessionID) == f.sessionID &&
			got.ReviewStatus == store.ReviewNotRequired && got.BaseCheckpoint != nil, "takeover left %+v", got)
	}},
	{name: "TransferKeepsStatus", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.TransferLease(ctx, f.ws, id, legacyLease("lease_moved", "recipient", twoHoursAfter), later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskClaimed && str(got.Assignee) == "recipient" && str(got.LeaseID) == "lease_moved" &&
			str(got.AssigneeSessionID) == f.sessionID, "legacy transfer left %+v", got)
	}},
	{name: "Progress", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.RecordProgress(ctx, f.ws, id, "halfway", later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(str(got.LatestProgress) == "halfway" && got.Status == store.TaskClaimed, "progress left %+v", got)
	}},
	{name: "BlockAndUnblock", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		if err := tx.BlockTask(ctx, f.ws, id, "waiting", true, later); err != nil {
			return err
		}
		return tx.UnblockTask(ctx, f.ws, id, true, later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskOpen && got.Blocker == nil && got.LeaseID == nil && got.AssigneeSessionID == nil &&
			got.Version == 4, "block then unblock left %+v", got)
	}},
	{name: "ReportThenAccept", setup: reported, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.AcceptCompletion(ctx, f.ws, id, "reviewer", f.sessionID, later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskCompleted && got.ReviewStatus == store.ReviewAccepted && got.ReviewGeneration == 1 &&
			str(got.AcceptedBy) == "reviewer" && str(got.AcceptedAt) == later && string(got.ResultCheckpoint) == `{"dirty":false}` &&
			str(got.CompletionReportID) == "report_1" && got.LeaseID == nil && got.AssigneeSessionID == nil, "acceptance left %+v", got)
	}},
	{name: "RequestChangesReopens", setup: reported, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.RequestChanges(ctx, f.ws, id, later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskOpen && got.ReviewStatus == store.ReviewChangesRequested && got.CompletedAt == nil,
			"request changes left %+v", got)
	}},
	{name: "LegacyComplete", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.CompleteTask(ctx, f.ws, id, "finished", later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskCompleted && str(got.LatestProgress) == "finished" && str(got.CompletedAt) == later &&
			got.LeaseID == nil && got.ReviewStatus == store.ReviewNotRequired, "legacy completion left %+v", got)
	}},
	{name: "SettleRecoveryBlocks", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		if err := tx.ExpireSessionLease(ctx, f.ws, id, later); err != nil {
			return err
		}
		blocker := "lost"
		return tx.SettleRecovery(ctx, f.ws, id, store.TaskBlocked, &blocker, later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskBlocked && str(got.Blocker) == "lost" && got.Version == 4, "recovery left %+v", got)
	}},
	{name: "BumpOnly", setup: claimed, apply: func(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
		return tx.BumpTask(ctx, f.ws, id, later)
	}, check: func(f *taskFixture, got store.Task) error {
		return expect(got.Status == store.TaskClaimed && str(got.LeaseID) == "lease_held", "bump left %+v", got)
	}},
}

// taskWritesBumpOnce applies every task write to a fresh session-plane
// task: each moves the version by exactly one per change, stamps
// updated_at, and sets only what it promises.
func taskWritesBumpOnce(t *testing.T, e store.Engine) {
	defer e.Close()
	f := newTaskFixture(t, e, "ws_writes", "local-path:writes")
	for i, w := range taskWrites {
		t.Run(w.name, func(t *testing.T) {
			id := fmt.Sprintf("task_%02d", i)
			f.insert(t, id, []string{"src"}, true)
			if w.setup != nil {
				f.mustWrite(t, "setup", func(ctx context.Context, tx store.Tx) error { return w.setup(ctx, tx, f, id) })
			}
			before := f.task(t, id)
			f.mustWrite(t, "apply", func(ctx context.Context, tx store.Tx) error { return w.apply(ctx, tx, f, id) })
			got := f.task(t, id)
			if got.UpdatedAt != later {
				t.Errorf("updated_at %s, want %s", got.UpdatedAt, later)
			}
			if w.name != "BlockAndUnblock" && w.name != "SettleRecoveryBlocks" && got.Version != before.Version+1 {
				t.Errorf("version %d -> %d, want exactly one step", before.Version, got.Version)
			}
			if got.Title != before.Title || !reflect.DeepEqual(got.PathScopes, before.PathScopes) || got.CreatedAt != before.CreatedAt {
				t.Errorf("the write changed the task's identity: %+v -> %+v", before, got)
			}
			if err := w.check(f, got); err != nil {
				t.Error(err)
			}
		})
	}
	var created bool
	err := f.write(func(ctx context.Context, tx store.Tx) error {
		if err := tx.BumpTask(ctx, f.ws, "task_nobody", later); err != nil {
			return err
		}
		var err error
		_, created, err = tx.Task(ctx, f.ws, "task_nobody")
		return err
	})
	if err != nil || created {
		t.Fatalf("a write to an unknown task: err=%v, created=%v; want nothing changed and no error", err, created)
	}
}

// claimedPathsInOrder builds claims of every kind across two workspaces
// of one repository (created in the opposite order to their ids) and one
// of another repository: only the reserving ones are listed, in the
// documented order.
func claimedPathsInOrder(t *testing.T, e store.Engine) {
	defer e.Close()
	second := newTaskFixture(t, e, "ws_b", "local-git:shared") // created first
	first := newTaskFixture(t, e, "ws_a", "local-git:shared")
	other := newTaskFixture(t, e, "ws_other", "local-git:elsewhere")
	ctx := context.Background()
	claim := func(f *taskFixture, id string, l store.Lease) {
		t.Helper()
		f.insert(t, id, []string{id + "/"}, l.SessionID != nil)
		f.mustWrite(t, "claim "+id, func(ctx context.Context, tx store.Tx) error { return tx.ClaimTask(ctx, f.ws, id, l, clock) })
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
		return tx.ClaimTask(ctx, first.ws, "task_ro", first.sessionLease("l7", anHourAfter), clock)
	})
	claim(other, "task_far", legacyLease("l8", "z", anHourAfter))

	var got []store.PathClaim
	err := e.Read(ctx, func(tx store.Tx) error {
		var err error
		got, err = tx.ClaimedPaths(ctx, "local-git:shared", clock)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range got {
		order = append(order, r.WorkspaceID+"/"+r.TaskID)
	}
	want := []string{"ws_b/task_lost", "ws_b/task_z", "ws_b/task_y", "ws_b/task_late", "ws_b/task_review", "ws_a/task_a"}
	if !reflect.DeepEqual(order, want) {
		t.Fatalf("claimed paths %v, want %v", order, want)
	}
	if r := got[0]; str(r.Assignee) != "agent-ws_b" || str(r.AssigneeSessionID) != second.sessionID ||
		str(r.LeaseExpiresAt) != anHourBefore || !reflect.DeepEqual(r.PathScopes, []string{"task_lost/"}) {
		t.Fatalf("claimed path fields %+v", r)
	}
}

// noClaimedPathsIsEmpty: a repository nobody claims in lists an empty,
// non-nil slice, and so does a task created without lists.
func noClaimedPathsIsEmpty(t *testing.T, e store.Engine) {
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
			got, err := tx.ClaimedPaths(context.Background(), repo, clock)
			if err == nil && (got == nil || len(got) != 0) {
				err = fmt.Errorf("claimed paths of %s: %#v, want an empty non-nil list", repo, got)
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
