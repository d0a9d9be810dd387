package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/agenttool/collab/core/journal"
)

// journalFault is where and how a journal first fails verification.
type journalFault struct {
	sequence int64
	problem  string
}

// errFaultFound stops the diagnostic read at the first fault.
var errFaultFound = errors.New("journal fault found")

// diagnoseJournal re-reads a journal that failed verification and names
// the first sequence at which it goes wrong and what is wrong there. It is
// the slow path, run only for invalid chains, and reads on one goroutine.
func diagnoseJournal(ctx context.Context, c Chains, h JournalHead) (journalFault, error) {
	lastSeq, lastHash := int64(0), journal.GenesisHash
	var hasher journal.Hasher
	var fault journalFault
	err := c.ScanEvents(ctx, h, func(e *journal.Event, rowErr error) error {
		if rowErr != nil {
			fault = journalFault{lastSeq + 1, "the event row cannot be read as an event: " + rowErr.Error()}
			return errFaultFound
		}
		var bad bool
		if fault, bad = eventFault(&hasher, e, h.EpochID, lastSeq, lastHash); bad {
			return errFaultFound
		}
		lastSeq, lastHash = e.Sequence, e.Hash
		return nil
	})
	switch {
	case errors.Is(err, errFaultFound):
		return fault, nil
	case err != nil:
		return journalFault{}, err
	case lastSeq != h.Sequence:
		return journalFault{min(lastSeq, h.Sequence) + 1,
			fmt.Sprintf("the workspace head names sequence %d but the journal ends at %d", h.Sequence, lastSeq)}, nil
	case lastHash != h.Hash:
		return journalFault{lastSeq, "the workspace head hash is not the hash of the last event"}, nil
	}
	return journalFault{}, nil
}

// eventFault checks one event against its predecessor.
func eventFault(hasher *journal.Hasher, e *journal.Event, epoch string, lastSeq int64, lastHash string) (journalFault, bool) {
	want := lastSeq + 1
	switch {
	case e.Sequence > want:
		return journalFault{want, fmt.Sprintf("event %d is missing (the next stored event is %d)", want, e.Sequence)}, true
	case e.Sequence < want:
		return journalFault{e.Sequence, fmt.Sprintf("event %d appears twice", e.Sequence)}, true
	case e.EpochID != epoch:
		return journalFault{want, "the event belongs to another epoch than its workspace"}, true
	case e.PrevHash != lastHash:
		return journalFault{want, fmt.Sprintf("prev_hash is not the hash of event %d", lastSeq)}, true
	case !hasher.Matches(e):
		return journalFault{want, "the stored hash does not match the event's content (the event was altered)"}, true
	}
	return journalFault{}, false
}
