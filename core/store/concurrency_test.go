package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/stress"
)

// concurrencyDeadline bounds the whole shared-store run: a deadlock fails
// the test with every goroutine's stack instead of stalling the suite. It
// is generous because a loaded machine under -race is slow, and it is cut
// short to end before the test binary's own timeout.
const concurrencyDeadline = 8 * time.Minute

// TestOneStoreServesManyGoroutinesAtOnce shares one Store between 16
// writers, each running every kind of mutation (sessions, task create,
// claim, renew, progress, block, unblock, release, handoff offer and
// accept, completion, reports, decisions, presence, cursor acks) round
// after round, and 8 readers polling every read path meanwhile. Run under
// -race it proves the Store is safe for concurrent use: no hang, no race,
// no refused operation, and the journal verifies at the end.
func TestOneStoreServesManyGoroutinesAtOnce(t *testing.T) {
	const writers, readers = 16, 8
	// Sized by COLLAB_STRESS (CI 2 rounds, full 6; see core/stress).
	rounds := stress.N(t, "", stress.Size{Short: 1, CI: 2, Full: 6})
	dir := t.TempDir()
	root := filepath.Join(dir, "main")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	// The context is cancelled only after the watchdog below has taken
	// the stacks, so a hang shows where it waits.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := backend.Open(ctx, backend.Options{Path: filepath.Join(dir, "state", "collab.sqlite")})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	seed, err := s.StartSession(ctx, store.StartSessionInput{RootPath: root, Actor: "seed"})
	if err != nil {
		t.Fatalf("start seed session: %v", err)
	}
	wsID := seed.Workspace.ID

	errs := make(chan error, writers+readers)
	// Writers signal each finished step on ticks and each tick lets one
	// reader read once, so reads interleave with writes throughout without
	// starving the writers of CPU (readers never wait on SQLite's lock).
	ticks := make(chan struct{}, readers)
	var writing, reading sync.WaitGroup
	for i := range writers {
		writing.Add(1)
		go func() {
			defer writing.Done()
			w := &storeWorker{ctx: ctx, s: s, root: root, wsID: wsID, id: i, ticks: ticks}
			for r := range rounds {
				if err := w.round(r); err != nil {
					errs <- fmt.Errorf("writer %d round %d: %w", i, r, err)
					return
				}
			}
		}()
	}
	stop := make(chan struct{})
	for i := range readers {
		reading.Add(1)
		go func() {
			defer reading.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				case <-ticks:
				}
				if err := readOnce(ctx, s, wsID, seed.Session.ID, i+n); err != nil {
					errs <- fmt.Errorf("reader %d: %w", i, err)
					return
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() {
		writing.Wait()
		close(stop)
		reading.Wait()
		close(done)
	}()
	deadline := concurrencyDeadline
	if end, ok := t.Deadline(); ok {
		deadline = min(deadline, time.Until(end)-30*time.Second)
	}
	select {
	case <-done:
	case <-time.After(deadline):
		// The store is left open: closing it could block on the very
		// lock that hangs.
		var stacks strings.Builder
		_ = pprof.Lookup("goroutine").WriteTo(&stacks, 2)
		t.Fatalf("goroutines sharing one store did not finish within %v; stacks:\n%s", deadline, stacks.String())
	}
	defer s.Close()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	checkConcurrentOutcome(t, ctx, s, wsID, writers*rounds)
}

// checkConcurrentOutcome confirms every writer's work landed: all tasks
// completed, its reports and decisions present, and a valid chain.
func checkConcurrentOutcome(t *testing.T, ctx context.Context, s *store.Store, wsID string, cycles int) {
	t.Helper()
	tasks, err := s.ListTasks(ctx, wsID, "")
	if err != nil {
		t.Fatalf("list tasks: %v", err)
	}
	if len(tasks) != cycles {
		t.Errorf("tasks: got %d, want %d", len(tasks), cycles)
	}
	for _, task := range tasks {
		if task.Status != "completed" {
			t.Errorf("task %s: status %q, want completed", task.ID, task.Status)
		}
	}
	// A session's decision is a report of kind decision; a completion adds
	// an observation report of its own beside the round's observation.
	kinds := map[string]int{}
	rows, err := readPool(s).QueryContext(ctx, "SELECT kind, count(*) FROM reports GROUP BY kind")
	if err != nil {
		t.Fatalf("count reports: %v", err)
	}
	for rows.Next() {
		var kind string
		var n int
		if err := rows.Scan(&kind, &n); err != nil {
			t.Fatal(err)
		}
		kinds[kind] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if want := map[string]int{"observation": 2 * cycles, "decision": cycles}; !maps.Equal(kinds, want) {
		t.Errorf("reports by kind: got %v, want %v", kinds, want)
	}
	all, err := s.VerifyAll(ctx)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	for _, v := range all {
		if !v.ChainValid {
			t.Errorf("workspace %s: chain invalid after concurrent writes", v.WorkspaceID)
		}
	}
}

// storeWorker is one writer goroutine: each round it runs a full task
// life cycle between two fresh sessions of its own.
type storeWorker struct {
	ctx        context.Context
	s          *store.Store
	root, wsID string
	id, keys   int
	ticks      chan<- struct{}
}

// key returns a fresh idempotency key; every mutation takes one, so it
// also signals a reader that a step was taken.
func (w *storeWorker) key() string {
	select {
	case w.ticks <- struct{}{}:
	default:
	}
	w.keys++
	return fmt.Sprintf("w%d-k%d", w.id, w.keys)
}

// decodeTaskResult decodes the task (and handoff) a task mutation returns.
func decodeTaskResult(raw json.RawMessage, err error) (store.Task, store.Handoff, error) {
	var out struct {
		Task    store.Task    `json:"task"`
		Handoff store.Handoff `json:"handoff"`
	}
	if err != nil {
		return out.Task, out.Handoff, err
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out.Task, out.Handoff, fmt.Errorf("decode %s: %w", raw, err)
	}
	return out.Task, out.Handoff, nil
}

// lease addresses the lease t holds with a fresh idempotency key.
func (w *storeWorker) lease(t store.Task) store.LeaseInput {
	var id string
	if t.LeaseID != nil {
		id = *t.LeaseID
	}
	return store.LeaseInput{WorkspaceID: w.wsID, TaskID: t.ID, LeaseID: id, IdempotencyKey: w.key(), ExpectedVersion: t.Version}
}

func (w *storeWorker) round(r int) error {
	ctx, s := w.ctx, w.s
	a, err := s.StartSession(ctx, store.StartSessionInput{RootPath: w.root, Actor: fmt.Sprintf("writer-%d", w.id)})
	if err != nil {
		return fmt.Errorf("start session: %w", err)
	}
	b, err := s.StartSession(ctx, store.StartSessionInput{RootPath: w.root, Actor: fmt.Sprintf("partner-%d", w.id)})
	if err != nil {
		return fmt.Errorf("start partner session: %w", err)
	}
	ca, cb := cred(a), cred(b)
	if err := w.presence(r); err != nil {
		return err
	}
	task := fmt.Sprintf("task-%d-%d", w.id, r)
	if err := w.lifeCycle(ca, cb, b.Session.ID, task); err != nil {
		return fmt.Errorf("task %s: %w", task, err)
	}
	if _, err := answerJSON(s.AppendReport(ctx, ca, store.AppendReportInput{IdempotencyKey: w.key(), TaskID: &task,
		Kind: "observation", Body: fmt.Sprintf("round %d of writer %d", r, w.id)})); err != nil {
		return fmt.Errorf("append report: %w", err)
	}
	if _, err := answerJSON(s.RecordDecision(ctx, store.SessionActor(cb), store.RecordDecisionInput{IdempotencyKey: w.key(),
		Topic: fmt.Sprintf("topic-%d-%d", w.id, r), Decision: "keep going",
		AuthorityScope: ptr("this task"), AuthorityBasis: ptr("assigned by the lead")})); err != nil {
		return fmt.Errorf("record decision: %w", err)
	}
	next, err := s.NextForSession(ctx, cb, nil, 50)
	if err != nil {
		return fmt.Errorf("next: %w", err)
	}
	if _, err := s.AckCursor(ctx, cb, w.wsID, next.Events.NextAnchor, next.Session.CursorVersion); err != nil {
		return fmt.Errorf("ack cursor: %w", err)
	}
	for _, c := range []store.Credential{ca, cb} {
		if _, err := s.EndSession(ctx, c, nil); err != nil {
			return fmt.Errorf("end session: %w", err)
		}
	}
	return nil
}

// lifeCycle creates a task as a, claims, renews, reports progress,
// releases and claims it again, blocks, unblocks and claims it a third
// time, then offers it to session toB, which accepts and completes it.
func (w *storeWorker) lifeCycle(ca, cb store.Credential, toB, id string) error {
	ctx, s := w.ctx, w.s
	mode := "coordination"
	t, _, err := decodeTaskResult(answerJSON(s.CreateTask(ctx, store.SessionActor(ca), store.CreateTaskInput{IdempotencyKey: w.key(), TaskID: &id,
		Title: "Task " + id, WorkMode: &mode})))
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	steps := []struct {
		name string
		run  func(t store.Task) (json.RawMessage, error)
	}{
		{"claim", func(t store.Task) (json.RawMessage, error) {
			return answerJSON(s.ClaimTask(ctx, store.SessionActor(ca), store.ClaimInput{TaskID: t.ID, IdempotencyKey: w.key(), ExpectedVersion: t.Version}))
		}},
		{"renew", func(t store.Task) (json.RawMessage, error) {
			ttl := int64(600)
			return answerJSON(s.RenewLease(ctx, store.SessionActor(ca), w.lease(t), &ttl))
		}},
		{"progress", func(t store.Task) (json.RawMessage, error) {
			return answerJSON(s.RecordProgress(ctx, store.SessionActor(ca), w.lease(t), "halfway"))
		}},
		{"release", func(t store.Task) (json.RawMessage, error) {
			summary := "handing back"
			return answerJSON(s.ReleaseLease(ctx, store.SessionActor(ca), w.lease(t), &summary))
		}},
		{"reclaim", func(t store.Task) (json.RawMessage, error) {
			return answerJSON(s.ClaimTask(ctx, store.SessionActor(ca), store.ClaimInput{TaskID: t.ID, IdempotencyKey: w.key(), ExpectedVersion: t.Version}))
		}},
		{"block", func(t store.Task) (json.RawMessage, error) {
			return answerJSON(s.BlockTask(ctx, store.SessionActor(ca), w.lease(t), "waiting on a review"))
		}},
		{"unblock", func(t store.Task) (json.RawMessage, error) {
			return answerJSON(s.UnblockTask(ctx, store.SessionActor(ca), store.UnblockInput{WorkspaceID: w.wsID, TaskID: t.ID, IdempotencyKey: w.key(), ExpectedVersion: t.Version}))
		}},
		{"claim after unblock", func(t store.Task) (json.RawMessage, error) {
			return answerJSON(s.ClaimTask(ctx, store.SessionActor(ca), store.ClaimInput{TaskID: t.ID, IdempotencyKey: w.key(), ExpectedVersion: t.Version}))
		}},
	}
	for _, step := range steps {
		if t, _, err = decodeTaskResult(step.run(t)); err != nil {
			return fmt.Errorf("%s: %w", step.name, err)
		}
	}
	t, h, err := decodeTaskResult(answerJSON(s.OfferHandoff(ctx, store.SessionActor(ca), store.OfferInput{Lease: w.lease(t), ToSessionID: &toB, Summary: "yours now"})))
	if err != nil {
		return fmt.Errorf("offer handoff: %w", err)
	}
	if t, _, err = decodeTaskResult(answerJSON(s.RespondToHandoff(ctx, store.SessionActor(cb), store.RespondInput{HandoffID: h.ID, IdempotencyKey: w.key(),
		ExpectedVersion: t.Version, Response: "accept"}))); err != nil {
		return fmt.Errorf("accept handoff: %w", err)
	}
	if _, _, err = decodeTaskResult(answerJSON(s.CompleteTask(ctx, store.SessionActor(cb), store.CompleteInput{Lease: w.lease(t), Summary: "done"}))); err != nil {
		return fmt.Errorf("complete: %w", err)
	}
	return nil
}

// presence joins, heartbeats and leaves a presence hint.
func (w *storeWorker) presence(r int) error {
	ctx, s := w.ctx, w.s
	p, err := s.JoinPresence(ctx, store.JoinInput{WorkspaceID: w.wsID, ClientInstanceID: fmt.Sprintf("client-%d-%d", w.id, r),
		ActorLabel: fmt.Sprintf("writer-%d", w.id), RuntimeKind: "test"})
	if err != nil {
		return fmt.Errorf("join presence: %w", err)
	}
	if _, err := answerJSON(s.HeartbeatPresence(ctx, store.PresenceUpdate{SessionID: p.ID, IdempotencyKey: w.key(), ExpectedVersion: p.Version})); err != nil {
		return fmt.Errorf("heartbeat: %w", err)
	}
	if _, err := answerJSON(s.LeavePresence(ctx, store.PresenceUpdate{SessionID: p.ID, IdempotencyKey: w.key(), ExpectedVersion: p.Version + 1})); err != nil {
		return fmt.Errorf("leave presence: %w", err)
	}
	return nil
}

// readOnce runs one of the store's read paths, chosen by n.
func readOnce(ctx context.Context, s *store.Store, wsID, sessionID string, n int) error {
	var err error
	switch n % 9 {
	case 0:
		_, err = s.ListTasks(ctx, wsID, "")
	case 1:
		_, err = s.Status(ctx, wsID)
	case 2:
		_, err = s.ListReports(ctx, store.ListReportsInput{WorkspaceID: wsID})
	case 3:
		_, err = s.EventsSince(ctx, wsID, nil, nil, 50)
	case 4:
		var ok bool
		if ok, err = s.VerifyJournal(ctx, wsID); err == nil && !ok {
			err = fmt.Errorf("journal failed verification mid-run")
		}
	case 5:
		_, err = s.ListPresence(ctx, wsID, nil, nil)
	case 6:
		_, err = s.Session(ctx, sessionID)
	case 7:
		_, err = s.Workspace(ctx, wsID)
	case 8:
		_, err = s.VerifyAll(ctx)
	}
	return err
}
