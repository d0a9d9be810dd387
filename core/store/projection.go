package store

import (
	"context"

	"github.com/agenttool/collab/core/scope"
)

// ConflictEntry is one live claim that overlaps a task's path scopes.
type ConflictEntry struct {
	ActiveTaskID      string      `json:"active_task_id"`
	ActiveWorkspaceID string      `json:"active_workspace_id"`
	Assignee          *string     `json:"assignee"`
	AssigneeSessionID *string     `json:"assignee_session_id"`
	LeaseExpiresAt    *string     `json:"lease_expires_at"`
	PathPairs         [][2]string `json:"path_pairs"`
}

// TaskConflict is a task that would be claimable but for path conflicts.
type TaskConflict struct {
	Task      Task            `json:"task"`
	Conflicts []ConflictEntry `json:"conflicts"`
}

// reservingTask is a task that currently reserves its path scopes: only
// what conflict reports need is read.
type reservingTask struct {
	id, workspaceID   string
	assignee          *string
	assigneeSessionID *string
	leaseExpiresAt    *string
	set               scope.Set
}

// reservations lists every task of the repository that reserves paths at
// now (reservesAt), in the order the reference reports conflicts in.
func reservations(ctx context.Context, q PathClaims, repositoryKey, now string) ([]reservingTask, error) {
	list, err := reservingAt(ctx, q, repositoryKey, now)
	if err != nil {
		return nil, err
	}
	inConflictOrder(list)
	var out []reservingTask
	for _, r := range list {
		out = append(out, reservingTask{id: r.ID, workspaceID: r.WorkspaceID, assignee: r.Assignee,
			assigneeSessionID: r.AssigneeSessionID, leaseExpiresAt: r.LeaseExpiresAt, set: scope.NewSet(r.PathScopes)})
	}
	return out, nil
}

// conflictsFor returns the reservations that overlap t's scopes.
func conflictsFor(t *Task, set scope.Set, reserved []reservingTask) []ConflictEntry {
	if len(t.PathScopes) == 0 || t.WorkMode == "read_only" {
		return nil
	}
	var out []ConflictEntry
	for _, r := range reserved {
		if r.id == t.ID && r.workspaceID == t.WorkspaceID {
			continue
		}
		pairs := set.Conflicts(r.set)
		if len(pairs) == 0 {
			continue
		}
		out = append(out, ConflictEntry{
			ActiveTaskID: r.id, ActiveWorkspaceID: r.workspaceID, Assignee: r.assignee,
			AssigneeSessionID: r.assigneeSessionID, LeaseExpiresAt: r.leaseExpiresAt, PathPairs: pairs,
		})
	}
	return out
}

// unsatisfiedDependencies reports which of t's dependencies are not yet
// satisfied: completed and, where review is required, accepted. A
// dependency naming no task refuses the poll with task_not_found.
func unsatisfiedDependencies(ctx context.Context, t *Task, h *headTasks) ([]string, error) {
	var missing []string
	for _, d := range t.Dependencies {
		dep, ok, err := h.task(ctx, d)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, taskNotFound(d)
		}
		if !dependencySatisfied(dep) {
			missing = append(missing, d)
		}
	}
	return missing, nil
}

func dependencySatisfied(dep *Task) bool {
	return dep.Status == TaskCompleted && (dep.CompletionPolicy != CompletionAccepted || dep.ReviewStatus == ReviewAccepted)
}

// projection is what collab_next shows about the snapshot head.
type projection struct {
	claimable  []Task
	conflicted []TaskConflict
}

// projectAvailable sorts the available tasks whose dependencies are met
// into claimable and conflicted. Available tasks are unfinished, so the
// head's list holds them all; their dependencies may be any task.
func projectAvailable(ctx context.Context, h *headTasks, reserved []reservingTask, available func(*Task) bool) (projection, error) {
	p := projection{claimable: []Task{}, conflicted: []TaskConflict{}}
	for i := range h.unfinished {
		t := &h.unfinished[i]
		if !available(t) {
			continue
		}
		missing, err := unsatisfiedDependencies(ctx, t, h)
		if err != nil {
			return p, err
		}
		if len(missing) > 0 {
			continue
		}
		if c := conflictsFor(t, scope.NewSet(t.PathScopes), reserved); len(c) > 0 {
			p.conflicted = append(p.conflicted, TaskConflict{Task: *t, Conflicts: c})
		} else {
			p.claimable = append(p.claimable, *t)
		}
	}
	return p, nil
}
