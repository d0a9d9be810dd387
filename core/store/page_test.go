package store

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
)

// journalTx is a Tx holding one workspace's journal in memory: just
// enough (Head and Events) for the page rules, which are Go over the
// port's ranged read.
type journalTx struct {
	Tx
	head   JournalHead
	events []journal.Event
}

func (j *journalTx) Head(_ context.Context, workspaceID string) (JournalHead, bool, error) {
	return j.head, workspaceID == j.head.WorkspaceID, nil
}

func (j *journalTx) Events(_ context.Context, workspaceID string, r EventRange) ([]journal.Event, error) {
	out := []journal.Event{}
	for _, e := range j.events {
		if workspaceID == j.head.WorkspaceID && e.Sequence > r.After && (r.Limit < 0 || len(out) < r.Limit) {
			out = append(out, e)
		}
	}
	return out, nil
}

// newJournalTx chains n events, leaving out the sequences in gaps (a
// damaged journal) while the head still counts them.
func newJournalTx(t *testing.T, n int64, gaps ...int64) *journalTx {
	t.Helper()
	j := &journalTx{head: JournalHead{WorkspaceID: "ws", Anchor: journal.Anchor{EpochID: "epoch", Hash: journal.GenesisHash}}}
	for seq := int64(1); seq <= n; seq++ {
		e := journal.Event{WorkspaceID: "ws", EpochID: "epoch", Sequence: seq, ID: fmt.Sprintf("event_%d", seq),
			Protocol: journal.ProtocolV2, Type: "x", EntityID: "e", Actor: "a", OccurredAt: "2026-01-01T00:00:00.000Z",
			PayloadJSON: []byte(`{}`), PrevHash: j.head.Hash}
		var hasher journal.Hasher
		var err error
		if e.Hash, err = hasher.Hash(&e); err != nil {
			t.Fatal(err)
		}
		j.head.Sequence, j.head.Hash = seq, e.Hash
		if !slices.Contains(gaps, seq) {
			j.events = append(j.events, e)
		}
	}
	return j
}

// TestEventPageReadsItsCursorEventWithThePage checks the page rules over
// the one ranged read: a page past genesis chains from the event at its
// cursor, read with it, and is refused when the journal holds no event
// there.
func TestEventPageReadsItsCursorEventWithThePage(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name       string
		gaps       []int64
		after      int64
		limit      int
		want       []int64
		valid      bool
		refusedFor collaberr.Code
	}{
		{name: "from genesis", after: 0, limit: 2, want: []int64{1, 2}, valid: true},
		{name: "past genesis", after: 2, limit: 2, want: []int64{3, 4}, valid: true},
		{name: "to the head", after: 3, limit: 10, want: []int64{4, 5}, valid: true},
		{name: "at the head", after: 5, limit: 10, want: []int64{}, valid: true},
		{name: "no event at the cursor", gaps: []int64{2}, after: 2, limit: 2, refusedFor: collaberr.CursorMismatch},
		{name: "a gap inside the page", gaps: []int64{4}, after: 2, limit: 2, want: []int64{3, 5}, valid: false},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := readEventPage(ctx, newJournalTx(t, 5, c.gaps...), "ws", c.after, c.limit)
			if c.refusedFor != "" {
				if ce, refused := collaberr.As(err); !refused || ce.Code != string(c.refusedFor) {
					t.Fatalf("got %v, want a %s refusal", err, c.refusedFor)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, e := range p.Events {
				got = append(got, e.Sequence)
			}
			if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
				t.Errorf("page %v, want %v", got, c.want)
			}
			if p.ChainValid != c.valid || p.Cursor.Sequence != c.after {
				t.Errorf("chain_valid %v cursor %d, want %v at %d", p.ChainValid, p.Cursor.Sequence, c.valid, c.after)
			}
		})
	}
}

// TestEventAtFindsOnlyThatSequence checks the read of one event: the
// first above sequence-1, and only when it is at sequence.
func TestEventAtFindsOnlyThatSequence(t *testing.T) {
	ctx := context.Background()
	j := newJournalTx(t, 4, 2)
	for _, c := range []struct {
		name     string
		sequence int64
		found    bool
	}{
		{"a stored event", 3, true},
		{"a gap", 2, false},
		{"genesis", 0, false},
		{"past the head", 5, false},
	} {
		e, found, err := eventAt(ctx, j, "ws", c.sequence)
		if err != nil || found != c.found || (found && e.Sequence != c.sequence) {
			t.Errorf("%s: event %d found=%v err=%v, want found=%v", c.name, e.Sequence, found, err, c.found)
		}
	}
}
