package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// VerifyJournalSinceRecord verifies one workspace's chain from the head an
// earlier open verified and recorded, re-checking that record first, and
// from genesis when the engine keeps no record or the record does not
// re-check. from is the sequence verification started after (0: from
// genesis). It sees everything verification from genesis sees after from,
// and a journal re-chained since the record; an event at or before from
// edited in place without re-chaining is found only by VerifyJournal.
func (s *Store) VerifyJournalSinceRecord(ctx context.Context, workspaceID string) (ok bool, from int64, err error) {
	found := false
	err = s.engine().ReadChains(ctx, func(c Chains) error {
		h, has, err := c.Head(ctx, workspaceID)
		if err != nil || !has {
			return err
		}
		found = true
		if rc, recorded := c.(RecordedChains); recorded {
			ok, from, err = rc.VerifySinceRecord(ctx, h)
			return err
		}
		ok, err = journal.VerifyChain(Stored(ctx, c, h), 0, nil)
		return err
	})
	if err != nil {
		return false, 0, err
	}
	if !found {
		return false, 0, workspaceNotFound(workspaceID)
	}
	return ok, from, nil
}
