//go:build linux

package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// Kill timing. One round in three is timed from the spawn, with a delay
// long enough to span startup (open, verification, resume), the cursor
// reset, the replay and a session start; the others are timed from the
// moment the session is bound, so they land among the writes.
const (
	maxEarlyKillDelay = 800 * time.Millisecond
	maxWriteKillDelay = 250 * time.Millisecond
)

// crashRun is a sequence of server processes on one database, each killed
// with SIGKILL at a random moment. One worker carries the session, its
// leases and its in-flight mutation from one process to the next.
type crashRun struct {
	t        *testing.T
	s        *sandbox
	repo     string
	rng      *rand.Rand
	w        *stressWorker
	credPath string
	// phase is what the current process was doing; phases counts where
	// the kills landed.
	phase  string
	phases map[string]int
	// recoveries counts resumes that came up in cursor recovery.
	recoveries int
	// armed is closed when the kill timer of this round may start.
	armed chan struct{}
}

func newCrashRun(t *testing.T, s *sandbox, repo string, seed uint64) *crashRun {
	sh := &stressShared{ledger: &ackLedger{}, book: newOutcomeBook()}
	w := newStressWorker(0, nil, "", sh, seed)
	w.expectKill = true
	return &crashRun{t: t, s: s, repo: repo, rng: rand.New(rand.NewPCG(seed, 0)), w: w, phases: map[string]int{}}
}

// round spawns one server, works until the kill lands, and reaps it.
func (cr *crashRun) round(n int) {
	mark := fmt.Sprintf("crash-%d-%d", n, cr.rng.Uint64())
	env := cr.s.env(markEnv + "=" + mark)
	if cr.credPath != "" {
		env = append(env, "AGENTOOL_COLLAB_SESSION_FILE="+cr.credPath, "AGENTOOL_COLLAB_ALLOW_CURSOR_RECOVERY=1")
	}
	ctx, cancel := context.WithCancel(context.Background())
	killed := make(chan bool, 1)
	cr.armed = make(chan struct{})
	maxDelay := maxWriteKillDelay
	if n%3 == 0 {
		maxDelay = maxEarlyKillDelay
		cr.arm()
	}
	delay := time.Duration(cr.rng.Int64N(int64(maxDelay)))
	go func() { killed <- killMarkedAfter(ctx, mark, cr.armed, delay) }()
	cr.phase = "startup"
	c, err := mcptest.Start([]string{os.Args[0]}, env)
	if err == nil {
		cr.w.c, cr.w.dead = c, false
		cr.work()
		cr.phase = cr.w.current
	}
	cancel()
	wasKilled := <-killed
	switch {
	case err != nil && !wasKilled:
		cr.startRefused(err)
	case err == nil:
		if code := c.Close(); code != -1 {
			cr.t.Fatalf("round %d: the server exited by itself (status %d) while %s: %s", n, code, cr.phase, c.Stderr())
		}
		fallthrough
	default:
		cr.phases[cr.phase]++
	}
}

// startRefused handles a server that refused to start. The only expected
// refusals come from a kill just after a session's end committed: the
// credential file is still there with its token revoked
// (session_auth_failed), or it was already removed
// (session_file_read_failed). Either way the run starts a new session.
func (cr *crashRun) startRefused(err error) {
	switch msg := err.Error(); {
	case strings.Contains(msg, "(session_auth_failed)"):
		if err := os.Remove(cr.credPath); err != nil {
			cr.t.Fatal(err)
		}
		cr.phases["resume of an ended session refused"]++
	case strings.Contains(msg, "(session_file_read_failed)"):
		if _, statErr := os.Stat(cr.credPath); !os.IsNotExist(statErr) {
			cr.t.Fatalf("the server could not read a credential file that exists: %v", err)
		}
		cr.phases["resume from a removed credential file refused"]++
	default:
		cr.t.Fatalf("the server refused to start: %v", err)
	}
	cr.credPath = ""
}

// work binds a session (resuming or starting one), replays the in-flight
// mutation of the killed process, then writes until this process dies.
func (cr *crashRun) work() {
	w := cr.w
	if cr.credPath == "" {
		cr.startSession()
	} else {
		cr.leaveRecovery()
	}
	if in := w.inflight; in != nil && in.session == w.session && !w.dead {
		r, ok := w.mutate(in.tool, in.args)
		if w.dead {
			w.current = "replay of " + in.tool
			return
		}
		if ok {
			w.observeTask(r)
		}
	}
	w.join()
	cr.arm()
	for !w.dead {
		cr.step()
	}
}

// arm starts this round's kill timer (once).
func (cr *crashRun) arm() {
	select {
	case <-cr.armed:
	default:
		close(cr.armed)
	}
}

func (cr *crashRun) startSession() {
	r, ok := cr.w.call("collab_session_start", map[string]any{"root_path": cr.repo, "actor": "crash"})
	if !ok {
		return
	}
	cr.w.session, cr.w.sh.ws = str(r, "session.id"), str(r, "workspace.id")
	cr.w.held = map[string]heldLease{}
	cr.credPath = filepath.Join(filepath.Dir(cr.s.db), "collab-sessions", str(r, "session_file_name"))
}

// leaveRecovery resets the cursor when the resume came up in recovery
// mode (the credential file's cursor lagged the database's).
func (cr *crashRun) leaveRecovery() {
	cr.w.current = "recovery probe"
	r, err := cr.w.c.Call("collab_next", map[string]any{"workspace_id": cr.w.sh.ws, "event_limit": 1})
	if err != nil {
		cr.w.dead = true
		return
	}
	if r.Code() != "cursor_recovery_required" {
		return
	}
	cr.recoveries++
	cr.w.call("collab_cursor_reset", map[string]any{"idempotency_key": cr.w.key(), "target": get(r.Structured, "persisted_cursor"),
		"expected_cursor_version": num(r.Structured, "expected_cursor_version"), "reason": "resumed after a kill"})
}

// step performs one weighted random action of a single session.
func (cr *crashRun) step() {
	w := cr.w
	switch n := w.rng.IntN(100); {
	case n < 35:
		w.appendReport()
	case n < 50:
		w.createTask()
	case n < 62:
		w.claimTask()
	case n < 72:
		w.withHeld(w.progress)
	case n < 80:
		w.withHeld(w.complete)
	case n < 88:
		w.nextAndAck()
	case n < 92:
		w.heartbeat()
	case n < 96:
		w.replay()
	default:
		cr.endSession()
	}
}

// endSession releases every lease, ends the session and starts a new one.
func (cr *crashRun) endSession() {
	w := cr.w
	for task, h := range w.held {
		if _, ok := w.mutate("collab_task_release", w.leaseArgs(task, h)); !ok {
			return
		}
		delete(w.held, task)
	}
	if _, ok := w.call("collab_session_end", map[string]any{"reason": "rotating"}); !ok {
		return
	}
	cr.credPath = ""
	cr.startSession()
}

// recount moves the kill of this round to a more precise phase.
func (cr *crashRun) recount(phase string) {
	if cr.phases[cr.phase]--; cr.phases[cr.phase] == 0 {
		delete(cr.phases, cr.phase)
	}
	cr.phases[phase]++
}

// landings renders where the kills landed, most frequent first.
func (cr *crashRun) landings() string {
	keys := make([]string, 0, len(cr.phases))
	for k := range cr.phases {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return cr.phases[keys[i]] > cr.phases[keys[j]] })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, cr.phases[k])
	}
	return strings.Join(parts, ", ")
}
