package wake

import (
	"time"

	"github.com/agenttool/collab/core/store"
)

// Follower turns successive wake snapshots of one viewer into notices,
// each given once: it keeps its own position (never the viewer's cursor)
// and remembers which state notices (a lease about to expire, an offer
// older than the window) it has already given. Both watch and the MCP
// channel follow a session this way. The zero value follows from
// sequence 0; use NewFollower to start elsewhere.
type Follower struct {
	after int64
	shown map[string]bool
}

// NewFollower returns a follower whose next snapshot is read after the
// sequence after.
func NewFollower(after int64) *Follower {
	return &Follower{after: after}
}

// After is the sequence the next snapshot must be read after
// (store.WakeForSession's after).
func (f *Follower) After() int64 { return f.after }

// Take returns the notices of snap not given before and moves the
// position past the events it inspected. snap must have been read after
// f.After() with a limit of CandidateLimit; when it was truncated the
// position stops at its last candidate, so the next snapshot goes on
// from there and nothing is skipped. A lease notice is given once per
// expiry time, so renewing the lease and letting it near expiry again
// gives a new one.
func (f *Follower) Take(snap store.WakeSnapshot, now time.Time) []Notice {
	if f.shown == nil {
		f.shown = map[string]bool{}
	}
	sum := Summarise(snap, now)
	var out []Notice
	for _, n := range sum.Notices {
		if n.Sequence == 0 {
			key := string(n.Kind) + "|" + n.TaskID + "|" + leaseOf(snap.Tasks, n.TaskID)
			if f.shown[key] {
				continue
			}
			f.shown[key] = true
		}
		out = append(out, n)
	}
	f.after = snap.Head.Sequence
	if sum.Truncated {
		f.after = snap.Candidates[len(snap.Candidates)-1].Sequence
	}
	return out
}

// leaseOf is the lease expiry of the viewer's task id, or "".
func leaseOf(tasks []store.WakeTask, id string) string {
	for _, t := range tasks {
		if t.ID == id && t.LeaseExpiresAt != nil {
			return *t.LeaseExpiresAt
		}
	}
	return ""
}
