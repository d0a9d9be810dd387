package journal

import (
	"errors"
	"fmt"
)

// ErrUnreadableEvent is what a store's event stream returns when a stored
// row does not read as an event (a NULL, or a value of another type, where
// the journal keeps text or an integer). No valid journal holds one, so
// VerifyChain counts it as a broken chain, not as a failure to verify.
var ErrUnreadableEvent = errors.New("a stored event row does not read as an event")

// Stored is one journal as a store holds it, offered to VerifyChain: the
// head it records and the ways the store can stream its events. The store
// only streams; VerifyChain computes the verdict.
type Stored struct {
	// HeadSequence and HeadHash are the journal's recorded head.
	HeadSequence int64
	HeadHash     string
	// Feed streams every event from genesis in sequence order.
	Feed Feed
	// Split, when set, offers the journal as consecutive ranges (genesis
	// to the head) that can be read at the same time, or nil when the
	// store reads it in one pass instead (a short journal, a file it
	// cannot read that way, a journal whose cut it cannot find).
	Split func() ([]Range, error)
}

// VerifyChain recomputes a stored journal's hash chain from genesis and
// reports whether it reaches the recorded head: the one verification every
// reader of a stored journal uses. With progress set it reads in one pass
// and calls progress as VerifyFeed does (after every `every` events);
// without, it reads the ranges Split offers at the same time when there
// are cores for them, reaching the verdict one pass would. A row that does
// not read as an event breaks the chain; any other stream error is
// returned with a false verdict.
func VerifyChain(j Stored, every int64, progress func(done int64)) (bool, error) {
	ok, err := verifyStored(j, every, progress)
	if errors.Is(err, ErrUnreadableEvent) {
		return false, nil
	}
	return ok, err
}

func verifyStored(j Stored, every int64, progress func(done int64)) (bool, error) {
	if progress == nil && j.Split != nil && ChainWorkers() >= 2 {
		ranges, err := j.Split()
		if err != nil {
			return false, err
		}
		if len(ranges) > 0 {
			first, last := ranges[0], ranges[len(ranges)-1]
			if first.FromSequence != 0 || first.FromHash != GenesisHash ||
				last.ToSequence != j.HeadSequence || last.ToHash != j.HeadHash {
				return false, fmt.Errorf("verify chain: the ranges run from %d to %d, not from genesis to the head %d",
					first.FromSequence, last.ToSequence, j.HeadSequence)
			}
			return VerifyRanges(ranges, max(1, ChainWorkers()/len(ranges)))
		}
	}
	return VerifyFeed(j.HeadSequence, j.HeadHash, every, progress, j.Feed)
}
