package postgres

import (
	"context"
	"errors"
	"testing"
)

// TestBusyWorkspaceIsGuessedOnlyForASingleWorkspaceEngine checks when
// first attempts queue at once: the workspace's writers met lately, and
// the engine's latest soleAfter writes all went to it.
func TestBusyWorkspaceIsGuessedOnlyForASingleWorkspaceEngine(t *testing.T) {
	for _, c := range []struct {
		name   string
		writes []string
		met    string
		want   string
	}{
		{"never met", repeat("ws_a", soleAfter), "", ""},
		{"met, too few writes", repeat("ws_a", soleAfter-1), "ws_a", ""},
		{"met, only writes there", repeat("ws_a", soleAfter), "ws_a", "ws_a"},
		{"met, then a write elsewhere", append(repeat("ws_a", soleAfter), "ws_b"), "ws_a", ""},
		{"met elsewhere", repeat("ws_a", soleAfter), "ws_b", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var q turns
			for _, ws := range c.writes {
				q.wrote(ws)
			}
			if c.met != "" {
				q.met(c.met)
			}
			if got := q.busy(); got != c.want {
				t.Fatalf("busy() = %q, want %q", got, c.want)
			}
		})
	}
}

func repeat(ws string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = ws
	}
	return out
}

// TestWorkspaceTurnIsHeldByOneWriter checks that a workspace's turn is
// held by one writer at a time, that other workspaces' turns are
// independent, and that a writer waiting for a turn leaves when its
// context ends.
func TestWorkspaceTurnIsHeldByOneWriter(t *testing.T) {
	var q turns
	release, err := q.take(context.Background(), "ws_a")
	if err != nil {
		t.Fatal(err)
	}
	other, err := q.take(context.Background(), "ws_b")
	if err != nil {
		t.Fatalf("another workspace's turn: %v", err)
	}
	other()
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() {
		_, err := q.take(ctx, "ws_a")
		got <- err
	}()
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("waiting for a held turn with an ended context: %v, want context.Canceled", err)
	}
	release()
	again, err := q.take(context.Background(), "ws_a")
	if err != nil {
		t.Fatalf("the turn after its release: %v", err)
	}
	again()
}
