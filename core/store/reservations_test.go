package store

import (
	"context"
	"reflect"
	"testing"
)

// candidates is a PathClaims that answers with fixed rows.
type candidates []Task

func (c candidates) ReservingTasks(context.Context, string) ([]Task, error) {
	return append([]Task(nil), c...), nil
}

const (
	rBefore = "2025-12-31T23:00:00.000Z"
	rNow    = "2026-01-01T00:00:00.000Z"
	rHour   = "2026-01-01T01:00:00.000Z"
	rTwo    = "2026-01-01T02:00:00.000Z"
)

// reservingFixture is the rows of two workspaces of one repository in
// insertion order (ws_b first), every kind of candidate among them.
func reservingFixture() candidates {
	session := "session_b"
	claim := func(ws, id, expires string, bySession bool, mode string) Task {
		t := Task{ID: id, WorkspaceID: ws, Status: TaskClaimed, WorkMode: mode, PathScopes: []string{id + "/"},
			LeaseExpiresAt: &expires, CreatedAt: rNow}
		if bySession {
			t.AssigneeSessionID = &session
		}
		return t
	}
	review := Task{ID: "task_review", WorkspaceID: "ws_b", Status: TaskCompleted, CompletionPolicy: CompletionAccepted,
		ReviewStatus: ReviewPending, WorkMode: "edit", PathScopes: []string{"r/"}, CreatedAt: rBefore}
	empty := claim("ws_b", "task_empty", rHour, false, "coordination")
	empty.PathScopes = []string{}
	return candidates{
		claim("ws_b", "task_late", rTwo, false, "coordination"),
		claim("ws_b", "task_z", rHour, false, "coordination"),
		claim("ws_b", "task_y", rHour, false, "coordination"),
		claim("ws_b", "task_lapsed", rBefore, false, "coordination"),
		claim("ws_b", "task_lost", rBefore, true, "edit"),
		review,
		empty,
		claim("ws_a", "task_a", rHour, false, "coordination"),
		claim("ws_a", "task_ro", rHour, true, "read_only"),
	}
}

func TestReservationsHoldOnceInGo(t *testing.T) {
	ctx := context.Background()
	conflicts, err := reservations(ctx, reservingFixture(), "repo", rNow)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, r := range conflicts {
		order = append(order, r.workspaceID+"/"+r.id)
	}
	want := []string{"ws_b/task_lost", "ws_b/task_z", "ws_b/task_y", "ws_b/task_late", "ws_b/task_review", "ws_a/task_a"}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("conflict order %v, want %v", order, want)
	}
	res, err := repositoryReservations(ctx, reservingFixture(), "repo", rNow)
	if err != nil {
		t.Fatal(err)
	}
	order = order[:0]
	for _, r := range res {
		order = append(order, r.WorkspaceID+"/"+r.TaskID)
	}
	want = []string{"ws_b/task_late", "ws_b/task_z", "ws_b/task_y", "ws_b/task_lost", "ws_b/task_review", "ws_a/task_a"}
	if !reflect.DeepEqual(order, want) || !res[4].Review || res[0].Review {
		t.Errorf("reservations %v (review %v), want %v", order, res[4].Review, want)
	}
	held, err := heldScopes(ctx, reservingFixture(), "repo", rNow)
	if err != nil {
		t.Fatal(err)
	}
	order = order[:0]
	for _, h := range held {
		order = append(order, h.WorkspaceID+"/"+h.TaskID)
	}
	want = []string{"ws_b/task_review", "ws_a/task_a", "ws_b/task_late", "ws_b/task_lost", "ws_b/task_y", "ws_b/task_z"}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("held scopes %v, want %v", order, want)
	}
}

func TestReservesAt(t *testing.T) {
	live, gone, session := rHour, rBefore, "s"
	cases := []struct {
		name string
		t    Task
		want bool
	}{
		{"LiveLease", Task{Status: TaskClaimed, LeaseExpiresAt: &live, PathScopes: []string{"a"}}, true},
		{"ExpiredLegacyLease", Task{Status: TaskClaimed, LeaseExpiresAt: &gone, PathScopes: []string{"a"}}, false},
		{"ExpiredSessionLease", Task{Status: TaskClaimed, LeaseExpiresAt: &gone, AssigneeSessionID: &session, PathScopes: []string{"a"}}, true},
		{"LeaseEndingNow", Task{Status: TaskClaimed, LeaseExpiresAt: func() *string { s := rNow; return &s }(), PathScopes: []string{"a"}}, false},
		{"ReadOnly", Task{Status: TaskClaimed, LeaseExpiresAt: &live, WorkMode: "read_only", PathScopes: []string{"a"}}, false},
		{"EmptyScopes", Task{Status: TaskClaimed, LeaseExpiresAt: &live, PathScopes: []string{}}, false},
		{"AwaitingReview", Task{Status: TaskCompleted, CompletionPolicy: CompletionAccepted, ReviewStatus: ReviewPending, PathScopes: []string{"a"}}, true},
		{"ReportedPolicy", Task{Status: TaskCompleted, CompletionPolicy: CompletionReported, ReviewStatus: ReviewPending, PathScopes: []string{"a"}}, false},
		{"Open", Task{Status: TaskOpen, LeaseExpiresAt: &live, PathScopes: []string{"a"}}, false},
	}
	for _, c := range cases {
		if got := reservesAt(&c.t, rNow); got != c.want {
			t.Errorf("%s: reservesAt = %v, want %v", c.name, got, c.want)
		}
	}
}
