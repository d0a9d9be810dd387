package journal

import (
	"errors"
	"testing"
)

// TestVerifyChainReadsWhatTheStoreOffers checks which stream VerifyChain
// reads (the ranges when offered and no progress is asked for, otherwise
// one pass), that both reach the same verdict, that an unreadable row is
// a broken chain and any other stream error an error, and that ranges not
// spanning genesis to the head are refused.
func TestVerifyChainReadsWhatTheStoreOffers(t *testing.T) {
	const n, cut = 600, 300
	events := testChain(t, n)
	head, at := events[n-1], events[cut-1]
	halves := []Range{
		{FromSequence: 0, FromHash: GenesisHash, ToSequence: at.Sequence, ToHash: at.Hash, Feed: feedOf(events, 0, cut)},
		{FromSequence: at.Sequence, FromHash: at.Hash, ToSequence: head.Sequence, ToHash: head.Hash,
			Feed: feedOf(events, cut, n)},
	}
	failing := func(err error) Feed { return func(func(*Event) error) error { return err } }
	otherErr := errors.New("disk gone")
	cases := []struct {
		name     string
		feed     Feed
		split    []Range
		progress bool
		valid    bool
		err      error
	}{
		{"one pass", feedOf(events, 0, n), nil, false, true, nil},
		{"ranges when offered", failing(otherErr), halves, false, true, nil},
		{"one pass when the store offers none", feedOf(events, 0, n), []Range{}, false, true, nil},
		{"one pass for progress", feedOf(events, 0, n), []Range{{Feed: failing(otherErr)}}, true, true, nil},
		{"a short journal", feedOf(events, 0, n-1), nil, false, false, nil},
		{"an unreadable row", failing(ErrUnreadableEvent), nil, false, false, nil},
		{"an unreadable row in a range", nil, []Range{halves[0], {FromSequence: at.Sequence, FromHash: at.Hash,
			ToSequence: head.Sequence, ToHash: head.Hash, Feed: failing(ErrUnreadableEvent)}}, false, false, nil},
		{"another stream error", failing(otherErr), nil, false, false, otherErr},
		{"ranges short of the head", nil, halves[:1], false, false, errRanges},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.split) > 0 && !tc.progress && ChainWorkers() < 2 {
				t.Skip("ranges are read only with two cores or more")
			}
			j := Stored{HeadSequence: head.Sequence, HeadHash: head.Hash, Feed: tc.feed}
			if tc.split != nil {
				j.Split = func() ([]Range, error) { return tc.split, nil }
			}
			var progress func(int64)
			if tc.progress {
				progress = func(int64) {}
			}
			valid, err := VerifyChain(j, 100, progress)
			if valid != tc.valid || !sameError(err, tc.err) {
				t.Fatalf("VerifyChain = %v, %v; want %v, %v", valid, err, tc.valid, tc.err)
			}
		})
	}
}

// errRanges stands for the error VerifyChain gives ranges that do not
// span the journal.
var errRanges = errors.New("any error")

func sameError(got, want error) bool {
	switch want {
	case nil:
		return got == nil
	case errRanges:
		return got != nil
	}
	return errors.Is(got, want)
}
