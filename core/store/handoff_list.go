package store

import (
	"cmp"
	"context"
	"slices"
)

// The reads below serve people listing offers (collab handoffs, collab
// status): they take no session and sweep nothing, so an offer whose
// deadline passed stays pending until a writer expires it, and they are
// safe on a store opened read-only.

// ListHandoffs lists the workspace's offers with status (every offer when
// status is empty), by id. Pending offers read through the workspace's
// handoffs_target_idx entries, so their cost follows the offers, not the
// journal.
func (s *Store) ListHandoffs(ctx context.Context, workspaceID string, status HandoffStatus) ([]Handoff, error) {
	var out []Handoff
	err := s.readTx(ctx, func(tx Tx) error {
		var err error
		out, err = tx.Handoffs(ctx, workspaceID, HandoffFilter{Status: status})
		return err
	})
	slices.SortFunc(out, func(a, b Handoff) int { return cmp.Compare(a.ID, b.ID) })
	return out, err
}

// FindHandoff returns one offer of the workspace by id; found is false
// when the workspace has no such offer.
func (s *Store) FindHandoff(ctx context.Context, workspaceID, id string) (Handoff, bool, error) {
	var h Handoff
	var found bool
	err := s.readTx(ctx, func(tx Tx) error {
		var err error
		h, found, err = findHandoff(ctx, tx, id)
		return err
	})
	if found && h.WorkspaceID != workspaceID {
		return Handoff{}, false, err
	}
	return h, found, err
}
