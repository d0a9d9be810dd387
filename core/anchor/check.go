package anchor

import (
	"cmp"
	"context"
	"fmt"
	"slices"
)

// Check compares head with the ledger at ledgerPath and returns the anchor
// status. Ledger problems never produce an error: they are states of the
// result. The only error is the context's, when ctx ends while j is being
// consulted; any other Journal error counts as the journal failing the
// corresponding check (anchor_conflict), as in the reference.
//
// Decision: entries for head's workspace and epoch are stably sorted by
// sequence. With no confirmed entry the result is anchor_pending (the last
// submitted or ambiguous entry) or unanchored. Otherwise the last confirmed
// entry is compared only after j.VerifyFull succeeds: ahead of head →
// conflict; at head → anchored when hashes match; below head → stale when
// j.EventHashAt returns the same hash at its sequence, else conflict.
func Check(ctx context.Context, ledgerPath string, head Head, j Journal) (Status, error) {
	st := Status{
		WorkspaceID:  head.WorkspaceID,
		HeadSequence: head.Sequence,
		HeadHash:     head.Hash,
		ScopeNote:    ScopeNote,
	}
	data, ok := readLedger(ledgerPath)
	if !ok {
		return st.with(StatusUnanchored, false, nil, reasonNoLedger), nil
	}
	return fromLedger(ctx, st, data, head, j)
}

// fromLedger is Check once the ledger bytes are in hand.
func fromLedger(ctx context.Context, st Status, data []byte, head Head, j Journal) (Status, error) {
	entries, ok := parseLedger(data)
	if !ok {
		return st.with(StatusUnanchored, false, nil, reasonMalformed), nil
	}
	return decide(ctx, st, matching(entries, head), head, j)
}

// matching keeps the entries of head's workspace and epoch, stably sorted by
// sequence so that equal sequences keep their ledger order.
func matching(entries []entry, head Head) []entry {
	var out []entry
	for _, e := range entries {
		if e.workspaceID == head.WorkspaceID && e.epochID == head.EpochID {
			out = append(out, e)
		}
	}
	slices.SortStableFunc(out, func(a, b entry) int { return cmp.Compare(a.sequence, b.sequence) })
	return out
}

func decide(ctx context.Context, st Status, entries []entry, head Head, j Journal) (Status, error) {
	if len(entries) == 0 {
		return st.with(StatusUnanchored, true, nil, reasonNoEntries), nil
	}
	if best, ok := last(entries, "confirmed"); ok {
		return compareConfirmed(ctx, st, best, head, j)
	}
	if pending, ok := last(entries, "submitted", "ambiguous"); ok {
		ref := refOf(pending)
		return st.with(StatusPending, true, ref, reasonPending(ref.Status)), nil
	}
	return st.with(StatusUnanchored, true, refOf(entries[len(entries)-1]), reasonAllFailed(len(entries))), nil
}

// last returns the last entry whose status is one of statuses.
func last(entries []entry, statuses ...string) (entry, bool) {
	for i := len(entries) - 1; i >= 0; i-- {
		if slices.Contains(statuses, entries[i].status) {
			return entries[i], true
		}
	}
	return entry{}, false
}

func compareConfirmed(ctx context.Context, st Status, best entry, head Head, j Journal) (Status, error) {
	ref := refOf(best)
	conflict := func(reason string) (Status, error) {
		return st.with(StatusConflict, true, ref, reason), nil
	}
	valid, err := j.VerifyFull(ctx, head.WorkspaceID)
	if ctx.Err() != nil {
		return Status{}, fmt.Errorf("verify journal for anchor status: %w", ctx.Err())
	}
	switch {
	case err != nil || !valid:
		return conflict(reasonVerifyFailed)
	case best.sequence > head.Sequence:
		return conflict(reasonAhead)
	case best.sequence == head.Sequence && best.headHash != head.Hash:
		return conflict(reasonHeadDiffers)
	case best.sequence == head.Sequence:
		return st.lagging(StatusAnchored, ref, 0, reasonAnchored), nil
	case best.sequence <= 0:
		return conflict(reasonNoEvent)
	}
	hash, found, err := j.EventHashAt(ctx, head.WorkspaceID, best.sequence)
	if ctx.Err() != nil {
		return Status{}, fmt.Errorf("read anchored event: %w", ctx.Err())
	}
	switch {
	case err != nil || !found:
		return conflict(reasonNoEvent)
	case hash != best.headHash:
		return conflict(reasonHashRewritten)
	}
	lag := head.Sequence - best.sequence
	return st.lagging(StatusStale, ref, lag, reasonStale(lag)), nil
}

// with fills the outcome fields of a Status whose lag_events is null.
func (st Status) with(status string, readable bool, ref *Ref, reason string) Status {
	st.Status, st.LedgerReadable, st.Anchor, st.Reason = status, readable, ref, reason
	return st
}

// lagging fills a readable outcome that reports lag_events.
func (st Status) lagging(status string, ref *Ref, lag int64, reason string) Status {
	st = st.with(status, true, ref, reason)
	st.LagEvents = &lag
	return st
}
