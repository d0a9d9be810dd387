package main

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

func TestWaitReturnsSoonAfterAnOfferAndAtItsTimeoutOtherwise(t *testing.T) {
	w := newWakePair(t)
	quiet := ok(t, w.bob, "collab_wait", map[string]any{"workspace_id": w.ws, "timeout_ms": 300})
	if quiet["woke"] != false || str(quiet, "reason") != "timeout" || num(quiet, "waited_ms") < 300 {
		t.Fatalf("nothing happened, yet: %v", quiet)
	}
	cursor, version := w.bobCursor(t)
	got := make(chan map[string]any, 1)
	returned := make(chan time.Time, 1)
	go func() {
		r, _ := w.bob.Call("collab_wait", map[string]any{"workspace_id": w.ws, "timeout_ms": 20000})
		returned <- time.Now()
		got <- r.Structured
	}()
	// The wait may begin before or after the offer commits; either way it
	// must report the offer, and never later than the deadline.
	w.offerToBob(t, "t1")
	offered := time.Now()
	select {
	case at := <-returned:
		r := <-got
		if r["woke"] != true || str(r, "reason") != "for_you" || num(r, "counts.handoff_offered") != 1 || r["events"] != nil {
			t.Fatalf("wait result %v", r)
		}
		t.Logf("measured: collab_wait returned %v after the offer call returned (waited %d ms)", at.Sub(offered), num(r, "waited_ms"))
	case <-time.After(wakeDeadline):
		t.Fatal("collab_wait did not return after the offer")
	}
	if c, v := w.bobCursor(t); c != cursor || v != version {
		t.Fatalf("collab_wait moved the cursor: %+v v%d -> %+v v%d", cursor, version, c, v)
	}
	legacy := w.s.start()
	r := ok(t, legacy, "collab_wait", map[string]any{"workspace_id": w.ws, "actor": "carol", "timeout_ms": 200, "scope": "workspace"})
	if str(r, "reason") != "timeout" {
		t.Fatalf("legacy wait with nothing new: %v", r)
	}
	r = ok(t, legacy, "collab_wait", map[string]any{"workspace_id": w.ws, "actor": "carol", "after_sequence": 1, "scope": "workspace"})
	if str(r, "reason") != "workspace" {
		t.Fatalf("legacy wait behind the head: %v", r)
	}
}

// cpuTicks reads a process's user+system CPU time in clock ticks.
func cpuTicks(t *testing.T, pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	u, _ := strconv.ParseInt(f[11], 10, 64)
	s, _ := strconv.ParseInt(f[12], 10, 64)
	return u + s
}

func TestManyWaitersAcrossProcessesCostLittleCPU(t *testing.T) {
	if testing.Short() {
		t.Skip("idle CPU measurement takes several seconds")
	}
	w := newWakePair(t)
	const procs, waiters = 8, 100
	clients := make([]*mcptest.Client, procs)
	for i := range clients {
		clients[i] = w.s.start()
	}
	baseline := idleShare(t, clients, 3*time.Second)
	var wg sync.WaitGroup
	results := make(chan []mcptest.Result, procs)
	for i, c := range clients {
		n := waiters / procs
		if i < waiters%procs {
			n++
		}
		calls := make([]map[string]any, n)
		for j := range calls {
			calls[j] = map[string]any{"workspace_id": w.ws, "actor": "idle" + strconv.Itoa(i), "timeout_ms": 6000}
		}
		wg.Add(1)
		go func(c *mcptest.Client) {
			defer wg.Done()
			r, err := c.CallMany("collab_wait", calls)
			if err != nil {
				t.Error(err)
			}
			results <- r
		}(c)
	}
	// Let every call reach its wait, then measure an idle window.
	time.Sleep(1500 * time.Millisecond)
	share := idleShare(t, clients, 3*time.Second)
	wg.Wait()
	close(results)
	count := 0
	for rs := range results {
		for _, r := range rs {
			if r.Structured["reason"] != "timeout" {
				t.Errorf("idle waiter: %s", r.Raw)
			}
			count++
		}
	}
	if count != waiters {
		t.Fatalf("%d of %d waits answered", count, waiters)
	}
	t.Logf("measured: %d collab_wait calls across %d processes used %.2f%% of one core over 3 s (the same processes with no call: %.2f%%)",
		waiters, procs, share, baseline)
	if share > 10 {
		t.Fatalf("idle waiters used %.2f%% of a core", share)
	}
}

// idleShare measures the CPU the clients' processes use over d, in percent
// of one core (clock ticks of 1/100 s, USER_HZ on Linux).
func idleShare(t *testing.T, clients []*mcptest.Client, d time.Duration) float64 {
	var before, after int64
	for _, c := range clients {
		before += cpuTicks(t, c.Pid())
	}
	start := time.Now()
	time.Sleep(d)
	for _, c := range clients {
		after += cpuTicks(t, c.Pid())
	}
	return float64(after-before) / 100 / time.Since(start).Seconds() * 100
}
