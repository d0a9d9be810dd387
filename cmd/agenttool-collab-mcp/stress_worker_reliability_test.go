package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// stressShared is what the workers of one stress run share: the workspace,
// the ledger of acknowledged writes, the outcome book and the pools of
// tasks to claim and completions to review.
type stressShared struct {
	ws       string
	ledger   *ackLedger
	book     *outcomeBook
	sessions []string

	mu      sync.Mutex
	tasks   []string
	reviews []pendingReview
}

// pendingReview is a completion waiting for a distinct session's review.
type pendingReview struct {
	task     string
	reporter string
}

func (sh *stressShared) addTask(id string) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.tasks = append(sh.tasks, id)
}

func (sh *stressShared) randomTask(rng *rand.Rand) (string, bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if len(sh.tasks) == 0 {
		return "", false
	}
	return sh.tasks[rng.IntN(len(sh.tasks))], true
}

// takeReview removes and returns a completion someone other than session
// reported.
func (sh *stressShared) takeReview(session string) (pendingReview, bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for i, r := range sh.reviews {
		if r.reporter != session {
			sh.reviews = append(sh.reviews[:i], sh.reviews[i+1:]...)
			return r, true
		}
	}
	return pendingReview{}, false
}

func (sh *stressShared) addReview(r pendingReview) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.reviews = append(sh.reviews, r)
}

// heldLease is a lease a worker believes it holds.
type heldLease struct {
	lease   string
	version int64
}

// sentCall is a mutation as sent, kept for an idempotent replay.
type sentCall struct {
	tool    string
	args    map[string]any
	result  []byte
	session string
}

// stressWorker drives one server process bound to its own session.
type stressWorker struct {
	id       int
	c        *mcptest.Client
	sh       *stressShared
	rng      *rand.Rand
	session  string
	presence string
	presVer  int64
	held     map[string]heldLease
	keys     int
	last     *sentCall
	// inflight is the mutation sent but not yet answered; after a kill it
	// is the one to replay. expectKill makes a broken pipe end the worker
	// (dead) instead of counting as a failure.
	inflight   *sentCall
	expectKill bool
	dead       bool
	// current is the tool of the call in progress (or last made).
	current string
}

// newStressWorker returns worker id; its choices follow from seed.
func newStressWorker(id int, c *mcptest.Client, session string, sh *stressShared, seed uint64) *stressWorker {
	return &stressWorker{id: id, c: c, sh: sh, session: session, held: map[string]heldLease{},
		rng: rand.New(rand.NewPCG(uint64(id), seed))}
}

// run performs random actions until the deadline.
func (w *stressWorker) run(deadline time.Time) {
	w.join()
	for time.Now().Before(deadline) && !w.dead {
		w.step()
	}
}

// step performs one weighted random action.
func (w *stressWorker) step() {
	switch n := w.rng.IntN(100); {
	case n < 25:
		w.appendReport()
	case n < 35:
		w.createTask()
	case n < 50:
		w.claimTask()
	case n < 60:
		w.withHeld(w.progress)
	case n < 68:
		w.withHeld(w.complete)
	case n < 74:
		w.review()
	case n < 86:
		w.nextAndAck()
	case n < 91:
		w.heartbeat()
	case n < 96:
		w.withHeld(w.offer)
	default:
		w.replay()
	}
}

func (w *stressWorker) key() string {
	w.keys++
	return fmt.Sprintf("w%d-%d", w.id, w.keys)
}

// call sends one tool call and records its outcome; ok reports success.
func (w *stressWorker) call(tool string, args map[string]any) (map[string]any, bool) {
	if w.dead {
		return nil, false
	}
	args["workspace_id"] = w.sh.ws
	w.current = tool
	r, err := w.c.Call(tool, args)
	if err != nil && w.expectKill {
		w.dead = true
		return nil, false
	}
	if !w.sh.book.record(tool, r, err) {
		return nil, false
	}
	return r.Structured, true
}

// mutate is call for an idempotent mutation: while unanswered it is the
// in-flight call, once acknowledged it goes into the ledger and becomes the
// call to replay.
func (w *stressWorker) mutate(tool string, args map[string]any) (map[string]any, bool) {
	if w.dead {
		return nil, false
	}
	w.inflight = &sentCall{tool: tool, args: args, session: w.session}
	out, ok := w.call(tool, args)
	if w.dead {
		return nil, false
	}
	w.inflight = nil
	if ok {
		if e, journalled := ledgerEntry(tool, out); journalled {
			w.sh.ledger.add(e)
		}
		b, _ := json.Marshal(out)
		w.last = &sentCall{tool: tool, args: args, result: b, session: w.session}
	}
	return out, ok
}

// ledgerEntry names the event an acknowledged mutation must have written.
func ledgerEntry(tool string, r map[string]any) (ackedWrite, bool) {
	task := ackedWrite{entity: str(r, "task.id"), version: num(r, "task.version")}
	switch tool {
	case "collab_report_append", "collab_decision_record":
		return ackedWrite{typ: "report.posted", entity: str(r, "report.id")}, true
	case "collab_task_create":
		task.typ = "task.created"
	case "collab_task_claim":
		task.typ = "task.claimed"
	case "collab_task_progress":
		task.typ = "task.progressed"
	case "collab_task_release":
		task.typ = "task.released"
	case "collab_task_complete":
		task.typ = map[bool]string{true: "task.reported_complete", false: "task.completed"}[str(r, "task.review_status") == "pending"]
	case "collab_task_review":
		task.typ = map[bool]string{true: "task.accepted", false: "task.changes_requested"}[str(r, "task.review_status") == "accepted"]
	case "collab_handoff_offer", "collab_handoff_respond":
		return ackedWrite{typ: "handoff." + map[string]string{"pending": "offered", "accepted": "accepted",
			"declined": "declined"}[str(r, "handoff.status")], entity: str(r, "handoff.id")}, true
	default:
		return ackedWrite{}, false
	}
	return task, true
}

func (w *stressWorker) appendReport() {
	kinds := []string{"observation", "inference", "proposal"}
	w.mutate("collab_report_append", map[string]any{"idempotency_key": w.key(), "kind": kinds[w.rng.IntN(3)],
		"body": fmt.Sprintf("worker %d saw step %d", w.id, w.keys)})
}

func (w *stressWorker) createTask() {
	args := map[string]any{"idempotency_key": w.key(), "title": fmt.Sprintf("task of worker %d", w.id),
		"work_mode": "coordination", "completion_policy": []string{"reported", "accepted"}[w.rng.IntN(2)]}
	if w.rng.IntN(3) == 0 {
		args["work_mode"] = "edit"
		args["path_scopes"] = []any{[]string{"src", "src/a.go", "docs"}[w.rng.IntN(3)]}
	}
	if r, ok := w.mutate("collab_task_create", args); ok {
		w.sh.addTask(str(r, "task.id"))
	}
}

func (w *stressWorker) claimTask() {
	id, ok := w.sh.randomTask(w.rng)
	if !ok {
		return
	}
	t, ok := w.call("collab_task_get", map[string]any{"task_id": id})
	if !ok || str(t, "task.status") != "open" {
		return
	}
	r, ok := w.mutate("collab_task_claim", map[string]any{"idempotency_key": w.key(), "task_id": id,
		"expected_version": num(t, "task.version")})
	if ok {
		w.grant(r)
	}
}

// grant records a lease this worker was just given.
func (w *stressWorker) grant(r map[string]any) {
	w.held[str(r, "task.id")] = heldLease{lease: str(r, "task.lease_id"), version: num(r, "task.version")}
}

// observeTask updates the held leases from a task in a result: held when
// it is claimed by this worker's session, forgotten otherwise.
func (w *stressWorker) observeTask(r map[string]any) {
	id := str(r, "task.id")
	switch {
	case id == "":
	case str(r, "task.status") == "claimed" && str(r, "task.assignee_session_id") == w.session:
		w.grant(r)
	default:
		delete(w.held, id)
	}
}

// withHeld runs fn on a random held lease, if any.
func (w *stressWorker) withHeld(fn func(task string, h heldLease)) {
	for task, h := range w.held {
		fn(task, h)
		return
	}
}

func (w *stressWorker) leaseArgs(task string, h heldLease) map[string]any {
	return map[string]any{"idempotency_key": w.key(), "task_id": task, "lease_id": h.lease, "expected_version": h.version}
}

// afterLeaseCall updates the held lease from a lease mutation's outcome:
// a new version on success, forgotten when someone else moved the task.
func (w *stressWorker) afterLeaseCall(task string, r map[string]any, ok bool) {
	if w.dead {
		return
	}
	if ok {
		w.held[task] = heldLease{lease: w.held[task].lease, version: num(r, "task.version")}
		return
	}
	delete(w.held, task)
	if t, ok := w.call("collab_task_get", map[string]any{"task_id": task}); ok &&
		str(t, "task.assignee_session_id") == w.session && str(t, "task.status") == "claimed" {
		w.held[task] = heldLease{lease: str(t, "task.lease_id"), version: num(t, "task.version")}
	}
}

func (w *stressWorker) progress(task string, h heldLease) {
	args := w.leaseArgs(task, h)
	args["message"] = fmt.Sprintf("worker %d progress %d", w.id, w.keys)
	r, ok := w.mutate("collab_task_progress", args)
	w.afterLeaseCall(task, r, ok)
}

func (w *stressWorker) complete(task string, h heldLease) {
	args := w.leaseArgs(task, h)
	args["summary"] = fmt.Sprintf("worker %d finished", w.id)
	r, ok := w.mutate("collab_task_complete", args)
	if !ok {
		w.afterLeaseCall(task, r, ok)
		return
	}
	delete(w.held, task)
	if str(r, "task.review_status") == "pending" {
		w.sh.addReview(pendingReview{task: task, reporter: w.session})
	}
}

func (w *stressWorker) review() {
	p, ok := w.sh.takeReview(w.session)
	if !ok {
		return
	}
	t, ok := w.call("collab_task_get", map[string]any{"task_id": p.task})
	if !ok {
		return
	}
	outcome := "accept"
	if w.rng.IntN(3) == 0 {
		outcome = "request_changes"
	}
	w.mutate("collab_task_review", map[string]any{"idempotency_key": w.key(), "task_id": p.task,
		"expected_version": num(t, "task.version"), "outcome": outcome, "summary": "looked at it"})
}

func (w *stressWorker) offer(task string, h heldLease) {
	target := w.sh.sessions[w.rng.IntN(len(w.sh.sessions))]
	if target == w.session {
		return
	}
	args := w.leaseArgs(task, h)
	args["to_session_id"], args["summary"] = target, "please take over"
	r, ok := w.mutate("collab_handoff_offer", args)
	w.afterLeaseCall(task, r, ok)
}

// nextAndAck polls, answers any handoff offers, and acknowledges the page.
func (w *stressWorker) nextAndAck() {
	r, ok := w.call("collab_next", map[string]any{"event_limit": 50})
	if !ok {
		return
	}
	offers, _ := get(r, "handoff_offers").([]any)
	for _, o := range offers {
		w.respond(o)
	}
	w.call("collab_cursor_ack", map[string]any{"anchor": get(r, "events.next_anchor"),
		"expected_cursor_version": num(r, "session.cursor_version")})
}

func (w *stressWorker) respond(offer any) {
	id := str(offer, "handoff.id")
	response := "accept"
	if w.rng.IntN(3) == 0 {
		response = "decline"
	}
	r, ok := w.mutate("collab_handoff_respond", map[string]any{"idempotency_key": w.key(), "handoff_id": id,
		"expected_version": num(offer, "task.version"), "response": response})
	if !ok {
		return
	}
	if response == "accept" {
		w.grant(r)
	}
}

// join announces this worker's presence once.
func (w *stressWorker) join() {
	r, ok := w.call("collab_session_join", map[string]any{"client_instance_id": fmt.Sprintf("stress-%d", w.id),
		"actor_label": fmt.Sprintf("worker-%d", w.id), "runtime_kind": "codex"})
	if ok {
		w.presence, w.presVer = str(r, "session.id"), num(r, "session.version")
	}
}

func (w *stressWorker) heartbeat() {
	if w.presence == "" {
		return
	}
	r, ok := w.mutate("collab_session_heartbeat", map[string]any{"session_id": w.presence, "idempotency_key": w.key(),
		"expected_version": w.presVer})
	if ok {
		w.presVer = num(r, "session.version")
	}
}

// replay resends the last acknowledged mutation with the same key: the
// stored response must come back unchanged (the ledger proves no second
// event was written).
func (w *stressWorker) replay() {
	if w.last == nil || w.last.session != w.session {
		return // keys belong to a session: another session's key is a new call
	}
	r, err := w.c.Call(w.last.tool, w.last.args)
	if err != nil && w.expectKill {
		w.dead = true
		return
	}
	if !w.sh.book.record(w.last.tool+"(replay)", r, err) {
		return
	}
	if b, _ := json.Marshal(r.Structured); !bytes.Equal(b, w.last.result) {
		w.sh.book.fail(fmt.Sprintf("%s replay returned a different result:\n%s\nfirst:\n%s", w.last.tool, b, w.last.result))
	}
}
