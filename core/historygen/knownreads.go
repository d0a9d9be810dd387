package historygen

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/agenttool/collab/core/store"
)

// This file is the generator's one speed trick on reads: two reads of the
// rules that scan history answered from what the generator itself wrote.
// The generator owns its file (a fresh one, one workspace, one writer:
// every task and report row is written through the Tx it hands the rules),
// so it knows the answer of those reads exactly:
//
//   - ReservingTasks (every claim's path-conflict check) reads the tasks
//     stored as claimed or as completed with a review pending; in SQLite
//     that walks every completed task of the workspace (no index holds
//     review_status), so a claim costs O(tasks so far) and a journal of n
//     events O(n²). Here it is the few rows in that state, kept as the
//     rules store them.
//   - Reports of the relations that take a report out of force (each
//     review's obsolescence check) scan every report of the workspace;
//     the mix never writes a withdrawal, correction or supersession, so
//     while no report of a relation asked for was written the answer is
//     empty.
//
// Every other read and every write goes to the engine unchanged, so the
// rules decide exactly as they would on a server and the bytes are the
// ones the server writes. With check set each known answer is compared
// with the engine's own, and a difference fails the mutation (the test
// TestKnownReadsAnswerAsTheEngine runs a whole mix that way).
type knownReads struct {
	store.Tx
	known *known
}

// known is what the generator wrote that the cached reads answer from; it
// lives across batches (a failed batch fails the whole generation, so it
// never holds a row that was rolled back).
type known struct {
	check     bool
	order     map[string]int        // task id → insertion order
	reserving map[string]store.Task // candidates for reserving paths, by id
	workspace string                // the one workspace tasks were inserted in
	mixed     bool                  // tasks of two workspaces: ask the engine
	repoKey   string                // the repository ReservingTasks was first asked about
	relations map[string]bool       // the relations of the reports written
	served    map[string]int        // answers given per read, for the test
}

func newKnown(check bool) *known {
	return &known{check: check, order: map[string]int{}, reserving: map[string]store.Task{}, served: map[string]int{}, relations: map[string]bool{}}
}

// InsertTask stores t and notes its insertion order.
func (k knownReads) InsertTask(ctx context.Context, t store.NewTask) error {
	if err := k.Tx.InsertTask(ctx, t); err != nil {
		return err
	}
	if k.known.workspace == "" {
		k.known.workspace = t.WorkspaceID
	}
	k.known.mixed = k.known.mixed || t.WorkspaceID != k.known.workspace
	k.known.order[t.ID] = len(k.known.order)
	return nil
}

// UpdateTask stores after and keeps the task among the reserving
// candidates exactly while it is stored in such a state.
func (k knownReads) UpdateTask(ctx context.Context, before, after store.Task) error {
	if err := k.Tx.UpdateTask(ctx, before, after); err != nil {
		return err
	}
	if after.Status == store.TaskClaimed || (after.Status == store.TaskCompleted && after.ReviewStatus == store.ReviewPending) {
		k.known.reserving[after.ID] = reservingRow(after)
	} else {
		delete(k.known.reserving, after.ID)
	}
	return nil
}

// ReservingTasks answers from the candidates kept, in insertion order.
func (k knownReads) ReservingTasks(ctx context.Context, repositoryKey string) ([]store.Task, error) {
	if k.known.mixed || (k.known.repoKey != "" && k.known.repoKey != repositoryKey) {
		return k.Tx.ReservingTasks(ctx, repositoryKey)
	}
	if k.known.repoKey == "" { // the first answer is the engine's: it names the repository
		k.known.repoKey = repositoryKey
		return k.Tx.ReservingTasks(ctx, repositoryKey)
	}
	out := make([]store.Task, 0, len(k.known.reserving))
	for _, t := range k.known.reserving {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b store.Task) int { return k.known.order[a.ID] - k.known.order[b.ID] })
	k.known.served["ReservingTasks"]++
	if k.known.check {
		return out, k.same(ctx, "ReservingTasks", out, func() (any, error) { return k.Tx.ReservingTasks(ctx, repositoryKey) })
	}
	return out, nil
}

// InsertReport stores r and notes its relation.
func (k knownReads) InsertReport(ctx context.Context, r store.Report) error {
	if err := k.Tx.InsertReport(ctx, r); err != nil {
		return err
	}
	k.known.relations[r.Relation] = true
	return nil
}

// Reports answers a listing of reports of relations no report written has
// with none; every other listing is the engine's.
func (k knownReads) Reports(ctx context.Context, workspaceID string, f store.ReportFilter) ([]store.Report, error) {
	window := f.After != 0 || f.Through != 0 || f.Limit != 0 || f.NewestFirst
	if len(f.Relations) == 0 || slices.ContainsFunc(f.Relations, func(r string) bool { return k.known.relations[r] }) ||
		(f.Target != "" && window) {
		return k.Tx.Reports(ctx, workspaceID, f)
	}
	out := []store.Report{}
	k.known.served["Reports"]++
	if k.known.check {
		return out, k.same(ctx, "Reports", out, func() (any, error) { return k.Tx.Reports(ctx, workspaceID, f) })
	}
	return out, nil
}

// same fails when the engine answers read otherwise than want.
func (k knownReads) same(ctx context.Context, read string, want any, engine func() (any, error)) error {
	got, err := engine()
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("known %s answered %+v, the engine %+v", read, want, got)
	}
	return nil
}

// reservingRow is t with only the columns ReservingTasks carries.
func reservingRow(t store.Task) store.Task {
	scopes := slices.Clone(t.PathScopes)
	if scopes == nil {
		scopes = []string{}
	}
	return store.Task{ID: t.ID, WorkspaceID: t.WorkspaceID, Title: t.Title, Status: t.Status, PathScopes: scopes,
		WorkMode: t.WorkMode, CompletionPolicy: t.CompletionPolicy, ReviewStatus: t.ReviewStatus,
		Assignee: clonePtr(t.Assignee), AssigneeSessionID: clonePtr(t.AssigneeSessionID),
		ClaimWorktreeID: clonePtr(t.ClaimWorktreeID), LeaseExpiresAt: clonePtr(t.LeaseExpiresAt), CreatedAt: t.CreatedAt}
}

func clonePtr(s *string) *string {
	if s == nil {
		return nil
	}
	v := *s
	return &v
}
