package cli

import (
	"context"
	"time"

	"github.com/agenttool/collab/core/liveness"
	"github.com/agenttool/collab/core/store"
)

// sessionStates judges each session (core/liveness) from its host record
// and the tasks it holds, in the order of sessions. It only reads.
func sessionStates(ctx context.Context, v *view, sessions []store.CoordinationSession, tasks []store.Task) ([]liveness.Life, error) {
	hosts, err := v.st.SessionHosts(ctx, v.ws.ID)
	if err != nil {
		return nil, err
	}
	lives := liveness.All(sessions, hosts, tasks, time.Now(), liveness.LocalProbe())
	out := make([]liveness.Life, 0, len(sessions))
	for _, s := range sessions {
		out = append(out, lives[s.ID])
	}
	return out, nil
}

// sessionLine renders a bound session with its state, its host and why,
// and its short id (the whole id with ids).
func sessionLine(p *printer, s store.CoordinationSession, life liveness.Life, ids bool) shown {
	colour := map[liveness.State]string{liveness.Active: "32", liveness.Stale: "33", liveness.Ended: "90"}[life.State]
	host := life.Host
	if host == "" {
		host = "host not recorded"
	}
	return safef("  %-12s %s  %s · %s  (%s, last seen %s)", s.Actor, p.paint(colour, padded(string(life.State), 6)),
		host, life.Reason, idShown(s.ID, ids), shortTime(s.LastSeenAt))
}

// padded pads s with spaces to width, so that colour codes around it do
// not upset the column.
func padded(s string, width int) string {
	for len(s) < width {
		s += " "
	}
	return s
}
