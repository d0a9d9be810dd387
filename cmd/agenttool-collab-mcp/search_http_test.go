//go:build unix

package main

import (
	"context"
	"testing"
	"time"
)

// TestAHostileSearchDoesNotDelayAnotherClientsSearch: one `serve --http`
// process, two clients. The first sends the hostile query; for
// the next two seconds the second searches normally, again and again. The
// hostile one must be answered or refused within a second, and no normal
// search may wait for it.
func TestAHostileSearchDoesNotDelayAnotherClientsSearch(t *testing.T) {
	s := newSandbox(t)
	ws := wordyJournal(t, s)
	token := s.token("searcher")
	srv := s.serveHTTP()
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	hostile, normal := srv.client(ctx, token, "hostile"), srv.client(ctx, token, "normal")
	warm, err := normal.Call(ctx, "collab_search", map[string]any{"workspace_id": ws, "query": "wordy"})
	if err != nil || warm.IsError {
		t.Fatalf("indexing search: %v %s", err, warm.Raw)
	}
	type answer struct {
		took    time.Duration
		refused bool
		raw     string
	}
	hostileDone := make(chan answer, 1)
	go func() {
		call, stop := context.WithTimeout(ctx, 20*time.Second)
		defer stop()
		start := time.Now()
		res, err := hostile.Call(call, "collab_search", map[string]any{"workspace_id": ws, "query": hostileQuery})
		a := answer{took: time.Since(start), refused: res.IsError, raw: string(res.Raw)}
		if err != nil {
			a.raw = err.Error()
		}
		hostileDone <- a
	}()
	var worst time.Duration
	searches := 0
	for window := time.Now().Add(2 * time.Second); time.Now().Before(window); searches++ {
		call, stop := context.WithTimeout(ctx, 5*time.Second)
		start := time.Now()
		res, err := normal.Call(call, "collab_search", map[string]any{"workspace_id": ws, "query": "wordy task 17"})
		took := time.Since(start)
		stop()
		if err != nil || res.IsError {
			t.Fatalf("normal search %d after %v: %v %s", searches+1, took, err, res.Raw)
		}
		worst = max(worst, took)
	}
	h := <-hostileDone
	t.Logf("hostile answered after %v (refused %v); %d normal searches, slowest %v", h.took, h.refused, searches, worst)
	if h.took > time.Second {
		t.Errorf("the hostile search took %v, want under 1 s: %.300s", h.took, h.raw)
	}
	if worst > time.Second {
		t.Errorf("a normal search took %v beside the hostile one", worst)
	}
}
