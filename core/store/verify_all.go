package store

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// WorkspaceVerification is the outcome of verifying one workspace journal.
type WorkspaceVerification struct {
	WorkspaceID  string `json:"workspace_id"`
	Name         string `json:"name"`
	HeadSequence int64  `json:"head_sequence"`
	HeadHash     string `json:"head_hash"`
	EventCount   int64  `json:"event_count"`
	ChainValid   bool   `json:"chain_valid"`
	// FirstBadSequence and Problem say, for an invalid chain, the first
	// sequence at which it fails and what is wrong there.
	FirstBadSequence int64  `json:"first_bad_sequence,omitempty"`
	Problem          string `json:"problem,omitempty"`
	// RecordedFoldProblem says, for a valid chain, how the independence
	// fold the engine recorded beside it (independence_record.go) differs
	// from a fresh fold of the journal; empty when it agrees, when none is
	// recorded, and when the record does not stand in the journal (no
	// process would use it).
	RecordedFoldProblem string `json:"recorded_fold_problem,omitempty"`
}

// VerifyAll recomputes every workspace journal from genesis, in workspace
// id order, and compares each valid one's recorded independence fold, if
// any, with a fresh fold of it (RecordedFoldProblem). It works on any
// recognised layout, including unmigrated v0.1 files opened read-only,
// and never writes. A file without any table (a
// first server killed before its first migration committed leaves one)
// holds no journal: the result is empty, not an error.
func (s *Store) VerifyAll(ctx context.Context) ([]WorkspaceVerification, error) {
	var out []WorkspaceVerification
	err := s.engine().ReadChains(ctx, func(c Chains) error {
		journals, err := c.Journals(ctx)
		if err != nil {
			return err
		}
		for _, j := range journals {
			v := WorkspaceVerification{WorkspaceID: j.WorkspaceID, Name: j.Name, HeadSequence: j.Sequence,
				HeadHash: j.Hash, EventCount: j.EventCount}
			if v.ChainValid, err = journal.VerifyChain(Stored(ctx, c, j.JournalHead), 0, nil); err != nil {
				return err
			}
			if !v.ChainValid {
				fault, err := diagnoseJournal(ctx, c, j.JournalHead)
				if err != nil {
					return err
				}
				v.FirstBadSequence, v.Problem = fault.sequence, fault.problem
			}
			out = append(out, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Only a current layout is read through the rules' transactions, and
	// only a current layout can hold a recorded fold (appends record it).
	if old, err := s.NeedsMigration(ctx); err != nil || old {
		return out, err
	}
	for i := range out {
		if !out[i].ChainValid {
			continue
		}
		if out[i].RecordedFoldProblem, err = s.recordedFoldProblem(ctx, out[i].WorkspaceID); err != nil {
			return nil, err
		}
	}
	return out, nil
}
