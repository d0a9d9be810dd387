package mcp

import (
	"context"
	"fmt"
)

// takeTurn waits until no other call of this process is running, or until
// ctx ends (a cancelled or timed-out request, a shutdown), so that a call
// never waits past its own context behind a slow one.
func (p *Process) takeTurn(ctx context.Context) error {
	select {
	case p.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("the call ended while waiting for the previous call of this process: %w", context.Cause(ctx))
	}
}

// endTurn lets the next call run.
func (p *Process) endTurn() { <-p.turn }

// keepText is the scrub for messages built without any secret in them.
func keepText(text string) string { return text }
