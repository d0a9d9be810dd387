package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

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
	// stream with journal.ErrUnreadableEvent; an error from fn ends it
	// with that error.
	Events(ctx context.Context, h JournalHead, fn func(e *journal.Event) error) error
	// ScanEvents is Events converting each column as database/sql's Scan
	// would (an integer read as text, for instance) and handing a row
	// that does not convert to fn as rowErr, with the message diagnostics
	// show. It is the slow path, for explaining a broken chain.
	ScanEvents(ctx context.Context, h JournalHead, fn func(e *journal.Event, rowErr error) error) error
	// Ranges offers h's journal as consecutive ranges from genesis to h
	// that can be read at the same time, each as Events would stream it,
	// or nil when the engine reads it in one pass instead. It only
	// streams: journal.VerifyChain checks the ranges meet and computes the
	// verdict.
	Ranges(ctx context.Context, h JournalHead) ([]journal.Range, error)
}

// Stored returns h's journal as c streams it, for journal.VerifyChain,
// the one verification of a stored journal.
func Stored(ctx context.Context, c Chains, h JournalHead) journal.Stored {
	return journal.Stored{HeadSequence: h.Sequence, HeadHash: h.Hash,
		Feed:  func(emit func(e *journal.Event) error) error { return c.Events(ctx, h, emit) },
		Split: func() ([]journal.Range, error) { return c.Ranges(ctx, h) }}
}

// JournalSummary is one workspace's journal as Chains.Journals lists it.
type JournalSummary struct {
	JournalHead
	Name       string
	EventCount int64
}

// RecordedChains is a Chains whose engine keeps, beside the journals, the
// head each journal's last open verified (SQLite's journal_verified_heads),
// and can verify from it instead of from genesis.
type RecordedChains interface {
	// VerifySinceRecord verifies h's journal from its recorded head when
	// that record re-checks (its event hashes from its stored columns to
	// the recorded hash), and from genesis otherwise. from is the sequence
	// verification started after: 0 means from genesis. A journal
	// re-chained since its record is not valid. It records nothing.
	VerifySinceRecord(ctx context.Context, h JournalHead) (ok bool, from int64, err error)
}
