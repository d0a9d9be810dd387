package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// next is t as a write at now that makes change leaves it: one version on.
func next(t store.Task, now string, change func(t *store.Task)) store.Task {
	change(&t)
	t.Version++
	t.UpdatedAt = now
	return t
}

// update reads a task, changes it and writes it back in tx.
func (f *taskFixture) update(ctx context.Context, tx store.Tx, id, now string, change func(t *store.Task)) error {
	before, found, err := tx.Task(ctx, f.ws, id)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("task %s not found", id)
	}
	return tx.UpdateTask(ctx, before, next(before, now, change))
}

// leasedTo is a claim with l, the columns a claim sets; the suite checks
// storage, so the values only need to be what the rules could store.
func leasedTo(l store.Lease) func(t *store.Task) {
	return func(t *store.Task) {
		t.Status, t.Assignee, t.LeaseID, t.LeaseExpiresAt, t.Blocker = store.TaskClaimed, &l.Assignee, &l.ID, &l.ExpiresAt, nil
		if l.SessionID != nil {
			t.AssigneeSessionID, t.ClaimWorktreeID, t.BaseCheckpoint = l.SessionID, l.WorktreeID, l.BaseCheckpoint
			t.CoordinationMode = "session_v2"
		}
	}
}

// claimed puts a session-plane task under a live session lease.
func claimed(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
	return f.update(ctx, tx, id, clock, leasedTo(f.sessionLease("lease_held", anHourAfter)))
}

// reported puts a claimed task into completed-awaiting-review.
func reported(ctx context.Context, tx store.Tx, f *taskFixture, id string) error {
	if err := claimed(ctx, tx, f, id); err != nil {
		return err
	}
	return f.update(ctx, tx, id, clock, func(t *store.Task) {
		report, by, session := "report_1", "agent-"+f.ws, f.sessionID
		t.Status, t.ReviewStatus, t.ReviewGeneration = store.TaskCompleted, store.ReviewPending, t.ReviewGeneration+1
		t.Assignee, t.AssigneeSessionID, t.ClaimWorktreeID, t.LeaseID, t.LeaseExpiresAt = nil, nil, nil, nil, nil
		t.ResultCheckpoint, t.CompletionReportID = json.RawMessage(`{"dirty":false}`), &report
		t.ReportedBy, t.ReportedBySessionID, t.ReportedAt, t.CompletedAt = &by, &session, &t.UpdatedAt, &t.UpdatedAt
	})
}

// everyColumn changes every column a versioned write may set.
func (f *taskFixture) everyColumn(t *store.Task) {
	s := func(v string) *string { return &v }
	t.Title, t.Description, t.Status, t.WorkMode = "renamed", s("described"), store.TaskBlocked, "coordination"
	t.CompletionPolicy, t.ReviewStatus, t.ExpectedBaseSHA = store.CompletionReported, store.ReviewChangesRequested, s("abc")
	t.BaseCheckpoint, t.ResultCheckpoint, t.CompletionReportID = json.RawMessage(`{"a":1}`), json.RawMessage(`{"b":2}`), s("report_9")
	t.Assignee, t.AssigneeSessionID, t.ClaimWorktreeID, t.LeaseID = s("who"), s(f.sessionID), s(f.worktreeID), s("lease_9")
	t.LeaseExpiresAt, t.Blocker, t.LatestProgress, t.ReportedBy = s(anHourAfter), s("stuck"), s("note \u2028"), s("rep")
	t.ReportedBySessionID, t.ReportedAt, t.AcceptedBy, t.AcceptedBySessionID = s("session_8"), s(later), s("acc"), s("session_7")
	t.AcceptedAt, t.CompletedAt, t.CoordinationMode, t.ReviewGeneration = s(later), s(later), "session_v2", 7
	t.Dependencies, t.PathScopes = []string{"task_x"}, []string{"src/", "docs/"}
}

// taskUpdateStoresRows checks UpdateTask as storage: it stores exactly
// the row given, moves the version by one, refuses a stale or skipped
// version and an unknown task, and never sets a column that did not
// change between the two rows it is handed.
func taskUpdateStoresRows(t *testing.T, e store.Engine) {
	defer e.Close()
	f := newTaskFixture(t, e, "ws_writes", "local-path:writes")
	f.insert(t, "task_all", []string{"src"}, true)
	before := f.task(t, "task_all")
	want := next(before, later, f.everyColumn)
	f.mustWrite(t, "every column", func(ctx context.Context, tx store.Tx) error { return tx.UpdateTask(ctx, before, want) })
	if got := f.task(t, "task_all"); !reflect.DeepEqual(got, want) {
		t.Fatalf("stored %+v\nwant   %+v", got, want)
	}
	cleared := next(want, twoHoursAfter, func(t *store.Task) {
		t.Description, t.Assignee, t.LeaseID, t.BaseCheckpoint, t.ResultCheckpoint = nil, nil, nil, nil, nil
	})
	f.mustWrite(t, "clear", func(ctx context.Context, tx store.Tx) error { return tx.UpdateTask(ctx, want, cleared) })
	if got := f.task(t, "task_all"); !reflect.DeepEqual(got, cleared) {
		t.Fatalf("after clearing stored %+v\nwant %+v", got, cleared)
	}
	refusals := []struct {
		name          string
		before, after store.Task
	}{
		{"StaleVersion", want, next(want, later, func(t *store.Task) { t.Title = "stale" })},
		{"SkippedVersion", cleared, func() store.Task { a := next(cleared, later, func(*store.Task) {}); a.Version++; return a }()},
		{"UnknownTask", func() store.Task { u := cleared; u.ID = "task_nobody"; return u }(),
			func() store.Task { u := next(cleared, later, func(*store.Task) {}); u.ID = "task_nobody"; return u }()},
	}
	for _, r := range refusals {
		err := f.write(func(ctx context.Context, tx store.Tx) error { return tx.UpdateTask(ctx, r.before, r.after) })
		if err == nil {
			t.Errorf("%s: the write succeeded", r.name)
		}
		if r.name != "SkippedVersion" && !errors.Is(err, store.ErrStaleTask) {
			t.Errorf("%s: %v, want ErrStaleTask", r.name, err)
		}
	}
	if got := f.task(t, "task_all"); !reflect.DeepEqual(got, cleared) {
		t.Fatalf("a refused write changed the task: %+v", got)
	}
	onlyChanged(t, f, cleared)
}

// onlyChanged hands UpdateTask a before row that disagrees with the
// stored one on two columns the write leaves alone: the stored values
// stay, so the statement cannot have named those columns.
func onlyChanged(t *testing.T, f *taskFixture, stored store.Task) {
	t.Helper()
	claimedBefore := stored
	note, shown := "not what is stored", []string{"not/stored/"}
	claimedBefore.LatestProgress, claimedBefore.PathScopes = &note, shown
	after := next(claimedBefore, later, func(t *store.Task) { t.Status = store.TaskOpen })
	f.mustWrite(t, "status only", func(ctx context.Context, tx store.Tx) error { return tx.UpdateTask(ctx, claimedBefore, after) })
	got := f.task(t, stored.ID)
	if got.Status != store.TaskOpen || got.Version != stored.Version+1 {
		t.Fatalf("status write left %s v%d", got.Status, got.Version)
	}
	if !reflect.DeepEqual(got.LatestProgress, stored.LatestProgress) || !reflect.DeepEqual(got.PathScopes, stored.PathScopes) {
		t.Fatalf("a column the write did not change was set: progress %v scopes %v, stored %v %v",
			got.LatestProgress, got.PathScopes, stored.LatestProgress, stored.PathScopes)
	}
}

func str(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
