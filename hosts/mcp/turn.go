package mcp

import "context"

// takeTurn waits until no other call of this process is running, or until
// ctx ends (the seat's turn: see core/seat).
func (p *Process) takeTurn(ctx context.Context) error { return p.seat.Take(ctx) }

// endTurn lets the next call run.
func (p *Process) endTurn() { p.seat.Release() }

// keepText is the scrub for messages built without any secret in them.
func keepText(text string) string { return text }
