package store

import (
	"bytes"
	"context"
	"fmt"
)

// recordedFoldProblem is the full audit's check of a workspace's recorded
// independence fold (independence_record.go): when the engine keeps one
// that stands in the journal, and so would be trusted by a new process,
// it must equal a fresh fold of the journal's claim events from genesis
// through its position, and count as many of them. It returns what
// differs, or "" when they agree or nothing trusted is recorded (a record
// readers ignore misleads nobody).
func (s *Store) recordedFoldProblem(ctx context.Context, workspaceID string) (string, error) {
	var problem string
	err := s.readTx(ctx, func(tx Tx) error {
		head, found, err := workspaceHead(ctx, tx, workspaceID)
		if err != nil || !found {
			return err
		}
		rec, err := recordedIndependence(ctx, tx, workspaceID, head)
		if err != nil || rec.at.Sequence == 0 {
			return err
		}
		events, err := tx.Events(ctx, workspaceID, EventRange{Types: independenceTypes, Limit: -1})
		if err != nil {
			return err
		}
		n := 0
		for n < len(events) && events[n].Sequence <= rec.at.Sequence {
			n++
		}
		fresh, err := independence{}.with(events[:n])
		if err != nil {
			problem = fmt.Sprintf("the journal's claim events through sequence %d do not fold: %v", rec.at.Sequence, err)
			return nil
		}
		want, err := foldText(int64(n), fresh)
		if err != nil {
			return err
		}
		got, err := foldText(rec.claimEvents, rec.fold)
		if err != nil {
			problem = err.Error()
			return nil
		}
		if !bytes.Equal(got, want) {
			problem = fmt.Sprintf("the independence fold recorded at sequence %d is not the fold of the journal's %d claim "+
				"events through it (the record says %d): the record was changed outside collab; once it is "+
				"removed, the next process folds the claims from genesis", rec.at.Sequence, n, rec.claimEvents)
		}
		return nil
	})
	return problem, err
}

// foldText is a fold as the audit compares it: the record's encoding of
// it, both parts.
func foldText(claimEvents int64, in independence) ([]byte, error) {
	fold, settled, err := encodeRecord(claimEvents, in)
	return append(append(fold, '\n'), settled...), err
}
