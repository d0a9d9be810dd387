package mcp

import (
	"context"
	"time"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
)

// waitResult is what collab_wait returns: why it returned, the counts and
// the head, never events.
type waitResult struct {
	Woke     bool              `json:"woke"`
	Reason   string            `json:"reason"`
	Head     journal.Anchor    `json:"head"`
	Unread   int64             `json:"unread_events"`
	ForYou   int               `json:"for_you"`
	Counts   map[wake.Kind]int `json:"counts"`
	WaitedMS int64             `json:"waited_ms"`
	Next     string            `json:"next_step"`
}

// snapshotFunc reads the caller's wake snapshot.
type snapshotFunc func(ctx context.Context) (store.WakeSnapshot, error)

// handleWait blocks until something new concerns the caller, the timeout
// passes, the server starts to shut down (an ordinary answer, reason
// "shutdown", so a drain never waits for it) or the call is cancelled. It runs outside the process lock
// (Tool.Waits) and reads only; the shared change poller wakes it.
func handleWait(ctx context.Context, p *Process, a Args) (any, error) {
	timeout := time.Duration(waitDefaultMillis) * time.Millisecond
	if n := a.OptInt("timeout_ms"); n != nil {
		timeout = time.Duration(*n) * time.Millisecond
	}
	workspaceScope := a.String("scope") == "workspace"
	look, cred, err := p.waitSnapshot(ctx, a)
	if err != nil {
		return nil, err
	}
	next, release := p.changeFeed().Subscribe()
	defer release()
	start := time.Now()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		changed := next()
		snap, err := look(ctx)
		if err != nil {
			return nil, err
		}
		sum := wake.Summarise(snap, time.Now())
		res := waitResult{Head: sum.Head, Unread: sum.Unread, ForYou: len(sum.Notices) - sum.Counts[wake.LeaseExpiring],
			Counts: sum.Counts, Next: "call collab_next to read what arrived"}
		switch {
		case res.ForYou > 0:
			res.Woke, res.Reason = true, "for_you"
		case workspaceScope && sum.Unread > 0:
			res.Woke, res.Reason = true, "workspace"
		}
		if res.Woke {
			res.WaitedMS = time.Since(start).Milliseconds()
			if res.Reason == "for_you" {
				announce(ctx, p.store, cred, store.ChannelWait, sum.Notices)
			}
			return res, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-deadline.C:
			res.Reason, res.WaitedMS = "timeout", time.Since(start).Milliseconds()
			res.Next = "nothing new; wait again or carry on"
			return res, nil
		case <-p.stopping:
			res.Reason, res.WaitedMS = "shutdown", time.Since(start).Milliseconds()
			res.Next = "the server is shutting down; carry on, and wait again once it is back"
			return res, nil
		case <-changed:
		}
	}
}

// waitSnapshot resolves, under the process lock, who is waiting: the bound
// session (from its persisted cursor) or a legacy actor (from
// after_sequence, else from the head when the call begins). The
// credential is the bound session's (zero for a legacy actor), against
// which the wake's announcements are recorded.
func (p *Process) waitSnapshot(ctx context.Context, a Args) (snapshotFunc, store.Credential, error) {
	var none store.Credential
	if err := p.takeTurn(ctx); err != nil {
		return nil, none, err
	}
	defer p.endTurn()
	ws := a.String("workspace_id")
	if p.seat.Bound() {
		if err := p.requireWorkspace(ws); err != nil {
			return nil, none, err
		}
		cred, err := p.boundCredential(true)
		if err != nil {
			return nil, none, err
		}
		return func(ctx context.Context) (store.WakeSnapshot, error) {
			return p.store.WakeForSession(ctx, cred, nil, wake.CandidateLimit)
		}, cred, nil
	}
	raw, err := legacyActor(a)
	if err != nil {
		return nil, none, err
	}
	actor, err := normalize.Actor(raw)
	if err != nil {
		return nil, none, err
	}
	var after int64
	if n := a.OptInt("after_sequence"); n != nil {
		after = *n
	} else {
		head, err := p.store.WakeForActor(ctx, ws, actor, 0, 1)
		if err != nil {
			return nil, none, err
		}
		after = head.Head.Sequence
	}
	return func(ctx context.Context) (store.WakeSnapshot, error) {
		return p.store.WakeForActor(ctx, ws, actor, after, wake.CandidateLimit)
	}, none, nil
}
