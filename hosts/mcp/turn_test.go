package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestACallWaitingForItsTurnHonoursItsContext holds the process's turn (as
// a slow call would) and makes a second call whose context ends while it
// waits: it must come back with an error result at once, without running
// its handler, and the process must take the next call once the turn is
// free.
func TestACallWaitingForItsTurnHonoursItsContext(t *testing.T) {
	p := NewProcess(ProcessConfig{})
	var tool Tool
	for _, candidate := range Tools() {
		if len(candidate.Input.validate(map[string]any{})) == 0 {
			tool = candidate
			break
		}
	}
	if tool.Name == "" {
		t.Fatal("no tool accepts empty arguments")
	}
	ran := 0
	tool.Handle = func(context.Context, *Process, Args) (any, error) {
		ran++
		return map[string]any{"ran": true}, nil
	}
	if err := p.takeTurn(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	result, err := p.call(ctx, tool, nil)
	if err != nil || !result.IsError || ran != 0 {
		t.Fatalf("a call whose context ended while waiting: result %+v, err %v, handler ran %d times", result, err, ran)
	}
	if text := string(result.StructuredContent.(json.RawMessage)); !strings.Contains(text, "internal_error") ||
		!strings.Contains(text, context.DeadlineExceeded.Error()) {
		t.Fatalf("the refusal does not say the call ended while waiting: %s", text)
	}
	p.endTurn()
	if result, err := p.call(context.Background(), tool, nil); err != nil || result.IsError || ran != 1 {
		t.Fatalf("the call after the turn was freed: result %+v, err %v, handler ran %d times", result, err, ran)
	}
}
