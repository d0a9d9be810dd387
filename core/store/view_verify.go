package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// verifyChunk is how many events VerifyWithProgress verifies between reports.
const verifyChunk = 2000

// VerifyWithProgress recomputes one workspace's chain from genesis
// (journal.VerifyChain) inside one read snapshot, calling progress, when
// set, after each chunk of events with how many have been checked and the
// head sequence. It stops at the first event that breaks the chain and
// reports false.
func (s *Store) VerifyWithProgress(ctx context.Context, workspaceID string, progress func(done, total int64)) (bool, error) {
	var ok, found bool
	err := s.engine().ReadChains(ctx, func(c Chains) error {
		h, has, err := c.Head(ctx, workspaceID)
		if err != nil || !has {
			return err
		}
		found = true
		var report func(done int64)
		if progress != nil {
			report = func(done int64) { progress(done, h.Sequence) }
		}
		ok, err = journal.VerifyChain(Stored(ctx, c, h), verifyChunk, report)
		return err
	})
	if err != nil {
		return false, err
	}
	if !found {
		return false, workspaceNotFound(workspaceID)
	}
	return ok, nil
}
