package main

import (
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// benchFirstNext times the first collab_next of fresh servers (each
// started and given a session untimed): the call that folds the
// workspace's independence claims before anything is cached in the
// process, so it reads every claim event of the journal (through the
// events type index of a long journal, see core/store/sqlite/type_index.go).
func benchFirstNext(b *testing.B, h *historyEnv) {
	args := map[string]any{"workspace_id": h.f.WorkspaceID, "event_limit": 50}
	benchFirstCall(b, h, "collab_next", args, func() {})
}

// benchFirstCall times one call of tool on each of b.N fresh servers,
// each started and given a session untimed after prepare has run
// (untimed too), and reports the servers' CPU for the call and their
// peak RSS.
func benchFirstCall(b *testing.B, h *historyEnv, tool string, args map[string]any, prepare func()) {
	var rss float64
	var cpu int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		prepare()
		c, err := mcptest.Start(h.argv, h.env)
		if err != nil {
			b.Fatal(err)
		}
		mustCall(b, c, "collab_session_start", map[string]any{"root_path": h.f.Root, "actor": "bench"})
		before := processCPU(b, c.Pid())
		b.StartTimer()
		mustCall(b, c, tool, args)
		b.StopTimer()
		cpu += processCPU(b, c.Pid()) - before
		rss = max(rss, vmHWM(c.Pid()))
		if code := c.Close(); code != 0 {
			b.Fatalf("server exited %d: %s", code, c.Stderr())
		}
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-us/op")
	b.ReportMetric(rss, "rss-MB")
}
