package mcp

import (
	"context"
	"time"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
)

// channelLeaseRecheck is how often a follower re-reads the session's
// leases while nothing commits, since an approaching expiry commits
// nothing.
const channelLeaseRecheck = 30 * time.Second

// follower follows one bound session for the channel, on its own
// goroutine, until stopped or the session ends.
type follower struct {
	c      *channel
	cred   store.Credential
	mark   string
	cancel context.CancelFunc
	done   chan struct{}
}

func startFollower(c *channel, cred store.Credential, mark string) *follower {
	ctx, cancel := context.WithCancel(context.Background())
	f := &follower{c: c, cred: cred, mark: mark, cancel: cancel, done: make(chan struct{})}
	go f.run(ctx)
	return f
}

// stop ends the follower and waits for it, so no notice is sent after.
func (f *follower) stop() {
	f.cancel()
	<-f.done
}

// run starts from the mark (the last sequence notified for this session
// in this epoch), else from the head when the session was bound, and
// sends each new notice once the client is ready. It wakes on the
// process's shared change poller (one PRAGMA data_version every
// wake.PollInterval, shared with collab_wait), and every
// channelLeaseRecheck for leases.
func (f *follower) run(ctx context.Context) {
	defer close(f.done)
	st := f.c.p.store
	head, err := st.WakeForSession(ctx, f.cred, nil, 1)
	if err != nil || !head.Active {
		return
	}
	follow := wake.NewFollower(startAfter(f.mark, f.cred.SessionID, head.Head))
	next, release := f.c.p.changeFeed().Subscribe()
	defer release()
	select {
	case <-f.c.ready:
	case <-ctx.Done():
		return
	}
	lease := time.NewTicker(channelLeaseRecheck)
	defer lease.Stop()
	for {
		changed := next()
		if f.deliver(ctx, follow) {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-changed:
		case <-lease.C:
		}
	}
}

// deliver sends the notices after the follower's position and records
// the new position. It reports whether following is over: the session
// ended, or its token changed (it was resumed by another process, whose
// own follower takes over from the mark).
func (f *follower) deliver(ctx context.Context, follow *wake.Follower) bool {
	after := follow.After()
	snap, err := f.c.p.store.WakeForSession(ctx, f.cred, &after, wake.CandidateLimit)
	if ce, refused := collaberr.As(err); refused && ce.Code == "session_auth_failed" {
		return true
	}
	if err != nil {
		// A busy or briefly unreadable database: try again at the next
		// change; the position has not moved.
		return ctx.Err() != nil
	}
	if !snap.Active {
		removeMark(f.mark)
		return true
	}
	mark := channelMark{SessionID: f.cred.SessionID, EpochID: snap.Head.EpochID}
	var sent []wake.Notice
	defer func() { announce(ctx, f.c.p.store, f.cred, store.ChannelPush, sent) }()
	for _, n := range follow.Take(snap, time.Now()) {
		if ctx.Err() != nil {
			return true
		}
		params := channelMessage(n, snap.WorkspaceID)
		params.Content = f.scrub(params.Content)
		if err := f.c.send(ctx, params); err != nil {
			return true
		}
		sent = append(sent, n)
		// Marked after each send: a follower stopped midway (the process
		// ends) resumes after the last notice it sent.
		if n.Sequence > after {
			mark.Sequence = n.Sequence
			writeMark(f.mark, mark)
		}
	}
	if follow.After() != after {
		mark.Sequence = follow.After()
		writeMark(f.mark, mark)
	}
	return false
}

// scrub keeps the credential directory and the session's own token out of
// a message, whatever another agent wrote into a summary. Every other
// token-shaped secret (another session's, an HTTP bearer token) is already
// redacted in the notice itself (core/wake.Redact).
func (f *follower) scrub(text string) string {
	return seat.ScrubFor(f.c.p.store.Path(), f.cred.Token, text)
}
