package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// IndependenceRecords is a Tx whose engine keeps, beside the journals, one
// recorded fold of each workspace's independence claims (SQLite's
// independence_folds), so that a new process folds only the claim events
// after it instead of every one since genesis. It is optional: a Tx that
// does not implement it (PostgreSQL's) folds from genesis once per
// process. The record is derived state, never trusted blindly: see
// independence_record.go for what is checked before it is used.
type IndependenceRecords interface {
	// RecordedIndependence returns the fold recorded for a workspace;
	// found is false when there is none (no record table, no row, or a
	// row that does not read).
	RecordedIndependence(ctx context.Context, workspaceID string) (r IndependenceRecord, found bool, err error)
	// RecordIndependence stores r as its workspace's record, replacing
	// any, inside the transaction (which creates the record table on
	// first use). Only a write transaction records.
	RecordIndependence(ctx context.Context, r IndependenceRecord) error
}

// IndependenceRecord is one workspace's recorded fold: the journal
// position it was read through and the fold in two parts, encoded by
// this package (the engine stores the bytes as they are): Fold, which
// every reader decodes, and Settled, which is decoded only when needed.
type IndependenceRecord struct {
	WorkspaceID string
	At          journal.Anchor
	Fold        []byte
	Settled     []byte
}
