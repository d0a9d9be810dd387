package journal

import (
	"fmt"
	"testing"
)

// feedOf streams events[from:to] (0-based, by position) in order.
func feedOf(events []Event, from, to int) Feed {
	return func(emit func(e *Event) error) error {
		for i := from; i < to && i < len(events); i++ {
			e := events[i]
			if err := emit(&e); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestVerifyRangesAgreesWithOnePass splits the journals of
// TestChainReachesTheVerifiersVerdict, intact and broken in each way, at
// the stored anchor of event 1,500 (a break at the cut included) and
// checks that VerifyRanges reaches the verdict of one pass over the whole.
func TestVerifyRangesAgreesWithOnePass(t *testing.T) {
	const n, cut = 3000, 1500
	cases := []struct {
		name   string
		breaks func(es []Event) []Event
	}{
		{"intact", func(es []Event) []Event { return es }},
		{"payload altered after the cut", func(es []Event) []Event { es[2200].PayloadJSON = []byte(`{"n":1}`); return es }},
		{"payload altered before the cut", func(es []Event) []Event { es[700].PayloadJSON = []byte(`{"n":1}`); return es }},
		{"event at the cut altered", func(es []Event) []Event { es[cut-1].Actor = "someone else"; return es }},
		{"link across the cut altered", func(es []Event) []Event { es[cut].PrevHash = es[cut-2].Hash; return es }},
		{"head's stored hash altered", func(es []Event) []Event { es[n-1].Hash = GenesisHash; return es }},
		{"event missing before the cut", func(es []Event) []Event { es[900].Sequence = 5000; return es }},
		{"last event missing", func(es []Event) []Event { return es[:n-1] }},
	}
	for _, tc := range cases {
		events := tc.breaks(testChain(t, n))
		head := testChain(t, n)[n-1] // the head the workspace row records
		whole, err := VerifyFeed(head.Sequence, head.Hash, 1, nil, feedOf(events, 0, len(events)))
		if err != nil {
			t.Fatal(err)
		}
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", tc.name, workers), func(t *testing.T) {
				at := events[cut-1] // the stored anchor read at the cut
				got, err := VerifyRanges([]Range{
					{FromSequence: 0, FromHash: GenesisHash, ToSequence: at.Sequence, ToHash: at.Hash, Feed: feedOf(events, 0, cut)},
					{FromSequence: at.Sequence, FromHash: at.Hash, ToSequence: head.Sequence, ToHash: head.Hash, Feed: feedOf(events, cut, len(events))},
				}, workers)
				if err != nil {
					t.Fatal(err)
				}
				if got != whole {
					t.Fatalf("VerifyRanges says %v, one pass says %v", got, whole)
				}
			})
		}
	}
}

// TestVerifyRangesRefusesRangesThatDoNotMeet checks that a gap between
// ranges is an error, not a verdict.
func TestVerifyRangesRefusesRangesThatDoNotMeet(t *testing.T) {
	events := testChain(t, 10)
	_, err := VerifyRanges([]Range{
		{FromSequence: 0, FromHash: GenesisHash, ToSequence: 4, ToHash: events[3].Hash, Feed: feedOf(events, 0, 4)},
		{FromSequence: 5, FromHash: events[4].Hash, ToSequence: 10, ToHash: events[9].Hash, Feed: feedOf(events, 5, 10)},
	}, 1)
	if err == nil {
		t.Fatal("ranges 1-4 and 6-10 verified without an error")
	}
}
