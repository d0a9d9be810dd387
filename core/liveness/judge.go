package liveness

import (
	"fmt"
	"time"

	"github.com/agenttool/collab/core/store"
)

// State is what a person is told about a session.
type State string

// The states of a session in people's views.
const (
	Active State = "active"
	Stale  State = "stale"
	Ended  State = "ended"
)

// Window is how long after it was last seen a session whose holder
// cannot be watched still counts as in use: the reference's default task
// lease (900 s), the time an agent that holds work is expected to renew
// within.
const Window = 15 * time.Minute

// EndAfter is how long after it was last seen a session whose holder
// cannot be watched, holding no lease, counts as ended.
const EndAfter = 24 * time.Hour

// Process is what is known of a session's holding process.
type Process string

// What a probe can know of a holding process.
const (
	Running Process = "running"
	Exited  Process = "exited"
	Unknown Process = "unknown"
)

// Life is a session as people's views show it.
type Life struct {
	SessionID string `json:"session_id"`
	State     State  `json:"state"`
	// Reason says why, in words a person reads.
	Reason string `json:"reason"`
	// Process is what is known of the holding process.
	Process Process `json:"process"`
	// Host names the host that holds the session (HostName), "" when
	// no record says.
	Host string `json:"host"`
}

// Probe says whether the process a host record names still runs.
type Probe func(store.SessionHost) Process

// Judge tells the state of sess at now (see the package comment for the
// rule). host is its host record, nil when none was recorded; tasks are
// the workspace's tasks (those sess holds are picked out); probe watches
// the holding process.
func Judge(sess store.CoordinationSession, host *store.SessionHost, tasks []store.Task, now time.Time, probe Probe) Life {
	life := Life{SessionID: sess.ID, Process: Unknown}
	if host != nil {
		life.Host = HostName(*host)
		life.Process = probe(*host)
	}
	if sess.Status == store.SessionEnded {
		life.State, life.Reason = Ended, "ended by collab_session_end"
		if sess.EndedAt != nil {
			life.Reason += " at " + shortTime(*sess.EndedAt)
		}
		return life
	}
	leaseUntil, expired := leases(sess.ID, tasks, now)
	seen, seenOK := parse(sess.LastSeenAt)
	until := leaseUntil
	if life.Process == Unknown && seenOK && seen.Add(Window).After(until) {
		until = seen.Add(Window)
	}
	gone := "host process exited"
	if life.Process == Unknown {
		gone = "not seen for " + since(seen, now)
	}
	switch {
	case life.Process == Running:
		life.State, life.Reason = Active, "host process running"
	case until.After(now) && life.Process == Exited:
		life.State, life.Reason = Active, gone+"; its lease runs until "+until.UTC().Format(clock)
	case until.After(now):
		life.State, life.Reason = Active, "seen "+since(seen, now)+" ago"
	case expired > 0:
		life.State, life.Reason = Stale, fmt.Sprintf("%s; %d expired lease(s) wait for collab_task_recover", gone, expired)
	case life.Process == Exited:
		life.State, life.Reason = Ended, gone
	case !seenOK || now.Sub(seen) > EndAfter:
		life.State, life.Reason = Ended, gone
	default:
		life.State, life.Reason = Stale, gone
	}
	return life
}

// clock is how Judge shows a time of day.
const clock = "2006-01-02 15:04:05Z"

// leases returns the latest expiry of the live leases session id holds
// (the zero time when none) and how many of the tasks it holds have an
// expired lease.
func leases(id string, tasks []store.Task, now time.Time) (time.Time, int) {
	var latest time.Time
	expired := 0
	for _, t := range tasks {
		if t.Status != "claimed" || t.AssigneeSessionID == nil || *t.AssigneeSessionID != id || t.LeaseExpiresAt == nil {
			continue
		}
		at, ok := parse(*t.LeaseExpiresAt)
		switch {
		case !ok:
		case at.After(now):
			if at.After(latest) {
				latest = at
			}
		default:
			expired++
		}
	}
	return latest, expired
}

func parse(at string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, at)
	return t, err == nil
}

func shortTime(at string) string {
	if t, ok := parse(at); ok {
		return t.UTC().Format(clock)
	}
	return at
}

// since renders how long ago t was, coarsely ("40s", "12m", "3h", "2d").
func since(t, now time.Time) string {
	if t.IsZero() {
		return "an unknown time"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// Live reports whether a person should count s as in use: its row says
// active and lives (from All) does not judge it ended. The people's faces
// read a label as naming only the live sessions bearing it.
func Live(s store.CoordinationSession, lives map[string]Life) bool {
	return s.Status == store.SessionActive && lives[s.ID].State != Ended
}

// All judges every session of sessions (see Judge), by session id.
func All(sessions []store.CoordinationSession, hosts map[string]store.SessionHost, tasks []store.Task, now time.Time,
	probe Probe) map[string]Life {
	out := make(map[string]Life, len(sessions))
	for _, s := range sessions {
		var h *store.SessionHost
		if rec, ok := hosts[s.ID]; ok {
			h = &rec
		}
		out[s.ID] = Judge(s, h, tasks, now, probe)
	}
	return out
}
