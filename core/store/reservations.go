package store

import (
	"cmp"
	"context"
	"slices"
)

// This file is the one statement of which tasks reserve their path
// scopes against everyone else's work in a repository. Conflict checks
// (ClaimedPaths order), the guard's reservations and the held scopes of
// the view all read it.

// reservesAt reports whether t reserves its path scopes at now: a claim
// with a live lease, or by a session (expired or not, until it is
// recovered), or a completion under the accepted policy waiting for
// review. A read-only task never reserves, and empty scopes reserve
// nothing.
func reservesAt(t *Task, now string) bool {
	if t.WorkMode == "read_only" || len(t.PathScopes) == 0 {
		return false
	}
	switch t.Status {
	case TaskClaimed:
		return leaseLive(t, now) || t.AssigneeSessionID != nil
	case TaskCompleted:
		return t.CompletionPolicy == CompletionAccepted && t.ReviewStatus == ReviewPending
	}
	return false
}

// reservingAt lists the repository's tasks that reserve at now, in
// workspace insertion order, then task insertion order.
func reservingAt(ctx context.Context, q PathClaims, repositoryKey, now string) ([]Task, error) {
	all, err := q.ReservingTasks(ctx, repositoryKey)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for i := range all {
		if reservesAt(&all[i], now) {
			out = append(out, all[i])
		}
	}
	return out, nil
}

// inConflictOrder sorts reserving tasks (in workspace, then task
// insertion order) the way the reference reports conflicts: workspace by
// workspace, claims before completions, then by lease expiry (none
// first), then insertion order.
func inConflictOrder(list []Task) {
	group := make(map[string]int, 2)
	for _, t := range list {
		if _, ok := group[t.WorkspaceID]; !ok {
			group[t.WorkspaceID] = len(group)
		}
	}
	expiry := func(t *Task) string {
		if t.LeaseExpiresAt == nil {
			return ""
		}
		return *t.LeaseExpiresAt
	}
	slices.SortStableFunc(list, func(a, b Task) int {
		return cmp.Or(cmp.Compare(group[a.WorkspaceID], group[b.WorkspaceID]), cmp.Compare(a.Status, b.Status),
			cmp.Compare(expiry(&a), expiry(&b)))
	})
}

// Reservation is a task that holds its path scopes against the work of
// everyone else in its repository (see reservesAt).
type Reservation struct {
	TaskID            string
	WorkspaceID       string
	Title             string
	Review            bool // a completion waiting for review, not a claim
	Assignee          *string
	AssigneeSessionID *string
	LeaseExpiresAt    *string
	PathScopes        []string
}

// HeldScope is a reserving task's path scopes and the worktree its claim
// was made from (empty when unknown, as for legacy claims).
type HeldScope struct {
	TaskID      string
	WorkspaceID string
	WorktreeID  string
	PathScopes  []string
}

// repositoryReservations lists the reservations of a repository at now in
// workspace insertion order, then task insertion order.
func repositoryReservations(ctx context.Context, q PathClaims, repositoryKey, now string) ([]Reservation, error) {
	list, err := reservingAt(ctx, q, repositoryKey, now)
	out := make([]Reservation, 0, len(list))
	for _, t := range list {
		out = append(out, Reservation{TaskID: t.ID, WorkspaceID: t.WorkspaceID, Title: t.Title, Review: t.Status == TaskCompleted,
			Assignee: t.Assignee, AssigneeSessionID: t.AssigneeSessionID, LeaseExpiresAt: t.LeaseExpiresAt, PathScopes: t.PathScopes})
	}
	return out, err
}

// heldScopes lists the reserving tasks' scopes at now in (created_at, id)
// order.
func heldScopes(ctx context.Context, q PathClaims, repositoryKey, now string) ([]HeldScope, error) {
	list, err := reservingAt(ctx, q, repositoryKey, now)
	slices.SortStableFunc(list, func(a, b Task) int {
		return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	out := make([]HeldScope, 0, len(list))
	for _, t := range list {
		worktree := ""
		if t.ClaimWorktreeID != nil {
			worktree = *t.ClaimWorktreeID
		}
		out = append(out, HeldScope{TaskID: t.ID, WorkspaceID: t.WorkspaceID, WorktreeID: worktree, PathScopes: t.PathScopes})
	}
	return out, err
}
