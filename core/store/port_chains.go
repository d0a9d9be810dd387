package store

import (
	"context"
	"errors"

	"github.com/agenttool/collab/core/journal"
)

// ErrUnreadableEvent is what Chains.Events returns when a stored row does
// not read as an event (a NULL, or a value of another type, where the
// journal keeps text or an integer). No valid journal holds one, so a
// verifier counts it as a broken chain, not as a failure to verify.
var ErrUnreadableEvent = errors.New("a stored event row does not read as an event")

// ChainReader streams whole journals for hash-chain verification, the one
// read that touches every event a workspace ever journaled.
type ChainReader interface {
	// ReadChains runs fn against one read-only snapshot of every journal.
	ReadChains(ctx context.Context, fn func(c Chains) error) error
}

// Chains is one snapshot's view of the journals, for verification.
type Chains interface {
	// Journals lists every workspace's journal head with its name and
	// stored event count, in workspace id order; empty (no error) when the
	// file holds no tables at all.
	Journals(ctx context.Context) ([]JournalSummary, error)
	// Head returns one workspace's journal head; found is false when there
	// is no such workspace.
	Head(ctx context.Context, workspaceID string) (h JournalHead, found bool, err error)
	// Events calls fn with every event of h's journal in sequence order,
	// reading only what verification needs. The *Event passed is reused
	// between calls; its strings and PayloadJSON may be kept (they are
	// never modified). A row that does not read as an event ends the
	// stream with ErrUnreadableEvent; an error from fn ends it with that
	// error.
	Events(ctx context.Context, h JournalHead, fn func(e *journal.Event) error) error
	// ScanEvents is Events converting each column as database/sql's Scan
	// would (an integer read as text, for instance) and handing a row
	// that does not convert to fn as rowErr, with the message diagnostics
	// show. It is the slow path, for explaining a broken chain.
	ScanEvents(ctx context.Context, h JournalHead, fn func(e *journal.Event, rowErr error) error) error
}

// JournalHead is one workspace's journal as Chains.Journals lists it.
type JournalSummary struct {
	JournalHead
	Name       string
	EventCount int64
}
