package journal

import (
	"errors"
	"fmt"
	"sync"
)

// Range is one stretch of a journal: the events after the anchor
// (FromSequence, FromHash) up to and including (ToSequence, ToHash), as
// Feed streams them in sequence order. The anchors are the stored
// sequence and hash of the events at the cuts (genesis is 0 and
// GenesisHash).
type Range struct {
	FromSequence, ToSequence int64
	FromHash, ToHash         string
	Feed                     Feed
	// Borrowed says Feed's events view memory that stays valid only
	// until emit returns (see Chain.Borrowed).
	Borrowed bool
}

// VerifyRanges checks consecutive ranges of one journal at the same time,
// each feed on its own goroutine with its own chain hashing on workers
// goroutines. It holds the same verdict as one pass over the whole
// journal: every link and every hash of every range checks, each range
// ends exactly at its To anchor, and each range starts where the one
// before it ends, so the event at every cut is checked by the range it
// ends (its hash) and by the next (the link to it). Ranges that do not
// meet are an error; the first feed error is returned, with a false
// verdict.
func VerifyRanges(ranges []Range, workers int) (bool, error) {
	for i := 1; i < len(ranges); i++ {
		if ranges[i].FromSequence != ranges[i-1].ToSequence || ranges[i].FromHash != ranges[i-1].ToHash {
			return false, fmt.Errorf("verify ranges: range %d starts after %d, not where range %d ends (%d)",
				i, ranges[i].FromSequence, i-1, ranges[i-1].ToSequence)
		}
	}
	verdicts := make([]bool, len(ranges))
	errs := make([]error, len(ranges))
	var wg sync.WaitGroup
	for i, r := range ranges {
		wg.Go(func() { verdicts[i], errs[i] = verifyRange(r, workers) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return false, err
	}
	for _, ok := range verdicts {
		if !ok {
			return false, nil
		}
	}
	return true, nil
}

// verifyRange checks one range against its anchors.
func verifyRange(r Range, workers int) (bool, error) {
	chain := NewChain(r.FromSequence, r.FromHash, workers)
	if r.Borrowed {
		chain.Borrowed()
	}
	defer chain.Close()
	err := r.Feed(func(e *Event) error {
		if !chain.Next(e) {
			return errChainBroken
		}
		return nil
	})
	if errors.Is(err, errChainBroken) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !chain.Close() {
		return false, nil
	}
	seq, hash := chain.Last()
	return seq == r.ToSequence && hash == r.ToHash, nil
}
