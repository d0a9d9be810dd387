package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// boundedHistory is a workspace whose finished tasks still matter to the
// head's answers: dependencies on completed tasks (reviewed, unreviewed
// and awaiting review), a handoff accepted and one pending, an offer
// left pending on a task completed since, own claims, a blocked task and
// a path conflict.
type boundedHistory struct {
	t      *testing.T
	ctx    context.Context
	st     *store.Store
	ws     string
	a, b   store.Credential
	keys   int
	leases map[string]store.Task
}

func newBoundedHistory(t *testing.T) *boundedHistory {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := backend.Open(ctx, backend.Options{Path: filepath.Join(dir, "c.sqlite"), Observe: fixedObserve})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := &boundedHistory{t: t, ctx: ctx, st: st, leases: map[string]store.Task{}}
	a, err := st.StartSession(ctx, store.StartSessionInput{RootPath: dir, Actor: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.StartSession(ctx, store.StartSessionInput{RootPath: dir, Actor: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	h.ws = a.Workspace.ID
	h.a = store.Credential{SessionID: a.Session.ID, Token: a.Token, Generation: a.Session.Generation}
	h.b = store.Credential{SessionID: b.Session.ID, Token: b.Token, Generation: b.Session.Generation}
	return h
}

func (h *boundedHistory) key() string {
	h.keys++
	return "k" + string(rune('a'+h.keys/26)) + string(rune('a'+h.keys%26))
}

func answered[T any](h *boundedHistory, what string, a *answer.Of[T], err error) T {
	h.t.Helper()
	var v T
	if err != nil {
		h.t.Fatalf("%s: %v", what, err)
	}
	if err := json.Unmarshal(a.JSON(), &v); err != nil {
		h.t.Fatalf("%s: decode %s: %v", what, a.JSON(), err)
	}
	return v
}

func (h *boundedHistory) create(who store.Actor, id string, deps, scopes []string, policy string) {
	h.t.Helper()
	if scopes == nil { // a session's edit task needs one; each its own
		scopes = []string{"area/" + id}
	}
	in := store.CreateTaskInput{WorkspaceID: h.ws, IdempotencyKey: h.key(), TaskID: &id, Title: "task " + id,
		Dependencies: deps, PathScopes: scopes}
	if policy != "" {
		in.CompletionPolicy = &policy
	}
	a, err := h.st.CreateTask(h.ctx, who, in)
	answered[store.TaskAnswer](h, "create "+id, a, err)
}

func (h *boundedHistory) claim(who store.Actor, id string) {
	h.t.Helper()
	a, err := h.st.ClaimTask(h.ctx, who, store.ClaimInput{WorkspaceID: h.ws, TaskID: id, IdempotencyKey: h.key(),
		ExpectedVersion: h.version(id)})
	h.leases[id] = answered[store.TaskAnswer](h, "claim "+id, a, err).Task
}

func (h *boundedHistory) version(id string) int64 {
	h.t.Helper()
	t, err := h.st.GetTask(h.ctx, h.ws, id)
	if err != nil {
		h.t.Fatalf("read %s: %v", id, err)
	}
	return t.Task.Version
}

func (h *boundedHistory) lease(id string) store.LeaseInput {
	return store.LeaseInput{WorkspaceID: h.ws, TaskID: id, LeaseID: *h.leases[id].LeaseID, IdempotencyKey: h.key(),
		ExpectedVersion: h.version(id)}
}

func (h *boundedHistory) complete(who store.Actor, id string) {
	h.t.Helper()
	a, err := h.st.CompleteTask(h.ctx, who, store.CompleteInput{Lease: h.lease(id), Summary: "done " + id})
	answered[store.TaskAnswer](h, "complete "+id, a, err)
}

func (h *boundedHistory) offer(who store.Actor, id string, to store.Credential) string {
	h.t.Helper()
	a, err := h.st.OfferHandoff(h.ctx, who, store.OfferInput{Lease: h.lease(id), ToSessionID: &to.SessionID,
		Summary: "over to you"})
	return answered[store.HandoffAnswer](h, "offer "+id, a, err).Handoff.ID
}

// build writes the history: each task's id says what it is at the head.
func (h *boundedHistory) build() {
	alice, bob, carol := store.SessionActor(h.a), store.SessionActor(h.b), store.LabelActor("carol")
	h.create(carol, "done_legacy", nil, nil, "")
	h.claim(carol, "done_legacy")
	h.complete(carol, "done_legacy")
	h.create(alice, "done_accepted", nil, nil, "accepted")
	h.claim(alice, "done_accepted")
	h.complete(alice, "done_accepted")
	review, err := h.st.ReviewTask(h.ctx, h.b, store.ReviewInput{WorkspaceID: h.ws, TaskID: "done_accepted",
		IdempotencyKey: h.key(), ExpectedVersion: h.version("done_accepted"), Outcome: "accept", Summary: "fine"})
	answered[store.ReviewAnswer](h, "review", review, err)
	h.create(alice, "done_pending", nil, nil, "accepted")
	h.claim(alice, "done_pending")
	h.complete(alice, "done_pending")
	h.create(carol, "after_done", []string{"done_legacy"}, nil, "")
	h.create(alice, "after_accepted", []string{"done_accepted", "done_legacy"}, nil, "")
	h.create(alice, "after_pending", []string{"done_pending"}, nil, "")
	h.create(carol, "after_open", []string{"after_done"}, nil, "")
	h.create(alice, "held_by_alice", nil, []string{"src/held"}, "")
	h.claim(alice, "held_by_alice")
	h.create(alice, "conflicted", []string{"done_legacy"}, []string{"src/held/inner.go"}, "")
	h.create(alice, "handed_to_bob", nil, nil, "")
	h.claim(alice, "handed_to_bob")
	offer := h.offer(alice, "handed_to_bob", h.b)
	accepted, err := h.st.RespondToHandoff(h.ctx, bob, store.RespondInput{WorkspaceID: h.ws, HandoffID: offer,
		IdempotencyKey: h.key(), ExpectedVersion: h.version("handed_to_bob"), Response: "accept"})
	answered[store.HandoffAnswer](h, "accept", accepted, err)
	h.create(alice, "offered_to_bob", nil, nil, "")
	h.claim(alice, "offered_to_bob")
	h.offer(alice, "offered_to_bob", h.b)
	h.create(carol, "held_by_carol", []string{"done_legacy"}, nil, "")
	h.claim(carol, "held_by_carol")
	h.create(carol, "blocked", nil, nil, "")
	h.claim(carol, "blocked")
	blocked, err := h.st.BlockTask(h.ctx, carol, h.lease("blocked"), "waiting")
	answered[store.TaskAnswer](h, "block", blocked, err)
}

// TestNextAtTheHeadReadsOnlyUnfinishedTasks: collab_next reads the
// unfinished tasks and, by id, the finished ones its answer names; each
// viewer's answer is byte for byte the one the full task list gives, and
// names what only a point read of a completed task can show.
func TestNextAtTheHeadReadsOnlyUnfinishedTasks(t *testing.T) {
	h := newBoundedHistory(t)
	h.build()
	cases := []struct {
		name, session, label string
		// shows are task ids the answer must hold somewhere, so that an
		// equal answer cannot be an empty one.
		shows []string
	}{
		{"alice's session", h.a.SessionID, "", []string{"after_done", "after_accepted", "held_by_alice", "conflicted"}},
		{"bob's session", h.b.SessionID, "", []string{"after_done", "handed_to_bob", "offered_to_bob"}},
		{"carol's label", "", "carol", []string{"after_done", "held_by_carol"}},
		{"a stranger's label", "", "nobody", []string{"after_done", "after_accepted"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bounded, full, err := h.st.NextBoundedAndFull(h.ctx, h.ws, c.session, c.label)
			if err != nil {
				t.Fatal(err)
			}
			got, want := mustJSON(t, bounded), mustJSON(t, full)
			if !bytes.Equal(got, want) {
				t.Fatalf("bounded answer differs from the full list's:\n got %s\nwant %s", got, want)
			}
			for _, id := range c.shows {
				if !bytes.Contains(got, []byte(`"id":"`+id+`"`)) {
					t.Errorf("answer does not show %s: %s", id, got)
				}
			}
			if bytes.Contains(got, []byte(`"id":"after_pending"`)) || bytes.Contains(got, []byte(`"id":"after_open"`)) {
				t.Errorf("answer shows a task whose dependency is unmet: %s", got)
			}
		})
	}
}

// TestWorkspaceStatusCountsWithoutListingFinishedTasks: the status's
// counts and task lists, read as unfinished-or-awaiting-review tasks plus
// a count of completed ones, equal the tally of every task.
func TestWorkspaceStatusCountsWithoutListingFinishedTasks(t *testing.T) {
	h := newBoundedHistory(t)
	h.build()
	got, err := h.st.Status(h.ctx, h.ws)
	if err != nil {
		t.Fatal(err)
	}
	want, err := h.st.StatusByFullList(h.ctx, h.ws)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"counts", got.Counts, want.Counts},
		{"expired_claims", got.ExpiredClaims, want.ExpiredClaims},
		{"active_claims", got.ActiveClaims, want.ActiveClaims},
		{"blocked_tasks", got.BlockedTasks, want.BlockedTasks},
		{"pending_reviews", got.PendingReviews, want.PendingReviews},
	} {
		if g, w := mustJSON(t, c.got), mustJSON(t, c.want); !bytes.Equal(g, w) {
			t.Errorf("%s = %s, want %s", c.name, g, w)
		}
	}
	if got.Counts.Completed != 3 || len(got.PendingReviews) != 1 || got.PendingReviews[0].ID != "done_pending" {
		t.Errorf("counts %+v, pending reviews %d: the history's finished work is not what it was built as",
			got.Counts, len(got.PendingReviews))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
