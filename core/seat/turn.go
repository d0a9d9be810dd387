package seat

import (
	"context"
	"fmt"
)

// Take waits until no other call holds the seat's turn, or until ctx ends
// (a cancelled or timed-out request, a shutdown), so that a call never
// waits past its own context behind a slow one.
func (s *Seat) Take(ctx context.Context) error {
	select {
	case s.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("the call ended while waiting for the previous call of this process: %w", context.Cause(ctx))
	}
}

// Release lets the next call take the turn.
func (s *Seat) Release() { <-s.turn }
