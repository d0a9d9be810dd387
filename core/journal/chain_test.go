package journal

import (
	"fmt"
	"slices"
	"testing"
	"unsafe"
)

// testChain builds a valid journal of n events, each hashed and linked.
func testChain(t testing.TB, n int) []Event {
	t.Helper()
	var h Hasher
	events := make([]Event, n)
	prev := GenesisHash
	for i := range events {
		e := Event{WorkspaceID: "ws_1", EpochID: "ep_1", Sequence: int64(i + 1), ID: fmt.Sprintf("evt_%d", i+1),
			Protocol: ProtocolV2, Type: "task.progressed", EntityID: "task_1", Actor: "codex:alpha",
			OccurredAt: "2026-01-01T00:00:00.000Z", PayloadJSON: fmt.Appendf(nil, `{"n":%d,"note":"step"}`, i), PrevHash: prev}
		hash, err := h.Hash(&e)
		if err != nil {
			t.Fatal(err)
		}
		e.Hash, prev = hash, hash
		events[i] = e
	}
	return events
}

// TestChainReachesTheVerifiersVerdict feeds the same journals, intact and
// broken in the middle in each way a chain breaks, to the sequential
// Verifier and to Chain with several worker counts, with events it may
// keep and with borrowed ones (overwritten as soon as Next returns): the
// verdicts and the verified head agree.
func TestChainReachesTheVerifiersVerdict(t *testing.T) {
	const n = 3000 // several batches per worker
	cases := []struct {
		name   string
		breaks func(es []Event) []Event
	}{
		{"intact", func(es []Event) []Event { return es }},
		{"payload altered", func(es []Event) []Event { es[1700].PayloadJSON = []byte(`{"n":1,"note":"step"}`); return es }},
		{"stored hash altered", func(es []Event) []Event { es[2999].Hash = GenesisHash; return es }},
		{"prev_hash altered", func(es []Event) []Event { es[1500].PrevHash = es[1400].Hash; return es }},
		{"event missing", func(es []Event) []Event { return append(es[:1200:1200], es[1201:]...) }},
		{"event repeated", func(es []Event) []Event { return append(es[:1201:1201], es[1200:]...) }},
		{"first event altered", func(es []Event) []Event { es[0].Actor = "someone else"; return es }},
	}
	for _, tc := range cases {
		events := tc.breaks(testChain(t, n))
		v := NewVerifier(0, GenesisHash)
		for i := range events {
			v.Next(&events[i])
		}
		wantSeq, wantHash := v.Last()
		for _, workers := range []int{1, 2, 8} {
			for _, borrowed := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/workers=%d/borrowed=%v", tc.name, workers, borrowed), func(t *testing.T) {
					c := NewChain(0, GenesisHash, workers)
					if borrowed {
						c.Borrowed()
					}
					feedChain(c, events, borrowed)
					got := c.Close()
					if got != v.Valid() {
						t.Fatalf("Chain says valid=%v, Verifier says %v", got, v.Valid())
					}
					if seq, hash := c.Last(); got && (seq != wantSeq || hash != wantHash) {
						t.Fatalf("verified head %d %s, want %d %s", seq, hash, wantSeq, wantHash)
					}
				})
			}
		}
	}
}

// feedChain feeds events to c in order. Borrowed events are copied into
// one scratch buffer that is overwritten with zeros once Next returns, as
// a reader's row memory is by its next step.
func feedChain(c *Chain, events []Event, borrowed bool) {
	var scratch []byte
	for i := range events {
		if !borrowed {
			c.Next(&events[i])
			continue
		}
		e := events[i]
		scratch = scratch[:0]
		view := func(s string) string {
			start := len(scratch)
			scratch = append(scratch, s...)
			return unsafe.String(unsafe.SliceData(scratch[start:]), len(s))
		}
		scratch = slices.Grow(scratch, 4096)
		e.ID, e.Actor, e.PrevHash, e.Hash = view(e.ID), view(e.Actor), view(e.PrevHash), view(e.Hash)
		start := len(scratch)
		scratch = append(scratch, e.PayloadJSON...)
		e.PayloadJSON = scratch[start:]
		c.Next(&e)
		clear(scratch[:cap(scratch)])
	}
}

// TestVerifyFeedReportsProgressOnlyForVerifiedEvents checks the progress
// reports: after each full chunk and after the last events, and none for
// a chunk that holds a broken event.
func TestVerifyFeedReportsProgressOnlyForVerifiedEvents(t *testing.T) {
	cases := []struct {
		name      string
		n, broken int
		want      []int64
		valid     bool
	}{
		{"exact chunks", 4000, -1, []int64{2000, 4000}, true},
		{"partial last chunk", 4500, -1, []int64{2000, 4000, 4500}, true},
		{"broken in the second chunk", 4500, 2500, []int64{2000}, false},
		{"broken in the last partial chunk", 4500, 4400, []int64{2000, 4000}, false},
		{"empty journal", 0, -1, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			events := testChain(t, tc.n)
			if tc.broken >= 0 {
				events[tc.broken].Type = "task.altered"
			}
			headSeq, headHash := int64(0), GenesisHash
			if tc.n > 0 {
				headSeq, headHash = events[tc.n-1].Sequence, events[tc.n-1].Hash
			}
			var got []int64
			valid, err := VerifyFeed(headSeq, headHash, 2000, func(done int64) { got = append(got, done) },
				func(emit func(*Event) error) error {
					for i := range events {
						if err := emit(&events[i]); err != nil {
							return err
						}
					}
					return nil
				})
			if err != nil || valid != tc.valid {
				t.Fatalf("VerifyFeed = %v, %v; want %v", valid, err, tc.valid)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("progress %v, want %v", got, tc.want)
			}
		})
	}
}

// BenchmarkChain measures verifying a 10,000-event journal held in memory,
// sequentially (workers=1) and on every core.
func BenchmarkChain(b *testing.B) {
	events := testChain(b, 10000)
	for _, workers := range []int{1, ChainWorkers()} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for b.Loop() {
				c := NewChain(0, GenesisHash, workers)
				for i := range events {
					c.Next(&events[i])
				}
				if !c.Close() {
					b.Fatal("chain invalid")
				}
			}
			b.ReportMetric(float64(len(events))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
