package liveness_test

import (
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/liveness"
	"github.com/agenttool/collab/core/store"
)

// TestJudgeTellsActiveStaleAndEnded walks the rule of the package comment
// case by case, at a fixed clock.
func TestJudgeTellsActiveStaleAndEnded(t *testing.T) {
	now := time.Date(2026, 7, 1, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration) string { return store.FormatTime(now.Add(d)) }
	held := func(lease time.Duration) []store.Task {
		id, until := "s1", at(lease)
		return []store.Task{{ID: "t", Status: "claimed", AssigneeSessionID: &id, LeaseExpiresAt: &until}}
	}
	stdio := &store.SessionHost{Kind: store.HostStdio, Client: "claude-code", ClientVersion: "2.1.0", PID: 42}
	person := &store.SessionHost{Kind: store.HostPersonCLI, Client: "collab"}
	ended := at(-time.Hour)
	for _, c := range []struct {
		name    string
		status  store.SessionStatus
		seen    time.Duration
		host    *store.SessionHost
		process liveness.Process
		tasks   []store.Task
		want    liveness.State
		reason  string
	}{
		{"ended by its row", store.SessionEnded, -time.Minute, stdio, liveness.Running, nil, liveness.Ended, "collab_session_end"},
		{"a running holder", store.SessionActive, -48 * time.Hour, stdio, liveness.Running, nil, liveness.Active, "running"},
		{"an exited holder holding nothing", store.SessionActive, -time.Second, stdio, liveness.Exited, nil, liveness.Ended, "exited"},
		{"an exited holder with a live lease", store.SessionActive, -time.Second, stdio, liveness.Exited, held(time.Minute), liveness.Active, "lease runs until"},
		{"an exited holder with an expired lease", store.SessionActive, -time.Hour, stdio, liveness.Exited, held(-time.Minute), liveness.Stale, "1 expired lease"},
		{"unwatched, seen lately", store.SessionActive, -5 * time.Minute, person, liveness.Unknown, nil, liveness.Active, "seen 5m ago"},
		{"unwatched, quiet past the window", store.SessionActive, -20 * time.Minute, person, liveness.Unknown, nil, liveness.Stale, "not seen for 20m"},
		{"unwatched, quiet but holding a live lease", store.SessionActive, -time.Hour, nil, liveness.Unknown, held(time.Minute), liveness.Active, ""},
		{"unwatched, expired lease long ago", store.SessionActive, -72 * time.Hour, nil, liveness.Unknown, held(-71 * time.Hour), liveness.Stale, "wait for collab_task_recover"},
		{"unwatched, quiet for days", store.SessionActive, -72 * time.Hour, person, liveness.Unknown, nil, liveness.Ended, "not seen for 3d"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sess := store.CoordinationSession{ID: "s1", Status: c.status, LastSeenAt: at(c.seen)}
			if c.status == store.SessionEnded {
				sess.EndedAt = &ended
			}
			probe := func(store.SessionHost) liveness.Process { return c.process }
			got := liveness.Judge(sess, c.host, c.tasks, now, probe)
			if got.State != c.want || !strings.Contains(got.Reason, c.reason) {
				t.Fatalf("got %s (%s), want %s (…%s…)", got.State, got.Reason, c.want, c.reason)
			}
			if c.host == nil && (got.Host != "" || got.Process != liveness.Unknown) {
				t.Fatalf("no record, yet host %q process %s", got.Host, got.Process)
			}
		})
	}
}

// TestHostNameSaysWhatTheClientSent names each kind of holder.
func TestHostNameSaysWhatTheClientSent(t *testing.T) {
	for _, c := range []struct {
		h    store.SessionHost
		want string
	}{
		{store.SessionHost{Kind: store.HostStdio, Client: "claude-code", ClientVersion: "2.1.0", PID: 7}, "claude-code 2.1.0 (MCP stdio, pid 7)"},
		{store.SessionHost{Kind: store.HostStdio}, "MCP stdio"},
		{store.SessionHost{Kind: store.HostHTTP, Client: "codex-mcp-client", Principal: "alice"}, "codex-mcp-client (MCP over HTTP, token alice)"},
		{store.SessionHost{Kind: store.HostPersonCLI, Client: "collab", ClientVersion: "dev"}, "collab dev (a person at the terminal)"},
	} {
		if got := liveness.HostName(c.h); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

// TestLocalProbeWatchesOnlyWhatItCanKnow: this process runs; a record of
// another machine, or with no process, is unknown; an id no process has
// is exited.
func TestLocalProbeWatchesOnlyWhatItCanKnow(t *testing.T) {
	probe := liveness.LocalProbe()
	self := liveness.Holder(store.HostStdio)
	if self.Machine == "" {
		t.Skip("this system names no machine")
	}
	if got := probe(self); got != liveness.Running {
		t.Errorf("this process: %s", got)
	}
	other := self
	other.Machine = self.Machine + "-elsewhere"
	if got := probe(other); got != liveness.Unknown {
		t.Errorf("another machine: %s", got)
	}
	none := self
	none.PID = 0
	if got := probe(none); got != liveness.Unknown {
		t.Errorf("no process: %s", got)
	}
	gone := self
	gone.PID, gone.ProcessStart = 1<<22+12345, 0 // above the default pid_max
	if got := probe(gone); got != liveness.Exited {
		t.Errorf("an id no process has: %s", got)
	}
	if self.ProcessStart != 0 {
		reused := self
		reused.ProcessStart++
		if got := probe(reused); got != liveness.Exited {
			t.Errorf("a reused id: %s", got)
		}
	}
}
