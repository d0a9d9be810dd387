package store

import (
	"context"
	"encoding/json"

	"github.com/agenttool/collab/core/journal"
)

// A new process used to fold a workspace's independence claims from
// genesis on its first read of them: in a long journal, thousands of
// claim events spread through the whole file. An engine that keeps
// IndependenceRecords lets it start instead from a fold recorded beside
// the journal, at a position (epoch, sequence, hash), and fold only the
// claim events after it.
//
// What a recorded fold is trusted for. It is derived state, like the
// tasks table: it is used only when its position is in the journal
// (inJournal: same epoch, not beyond the head, the event stored at its
// sequence carries its hash), which the chain turns into "the journal's
// first events are the ones the fold was read from". So a record of
// another file, of another epoch or of a rolled-back transaction, or of
// a journal rewritten or re-chained at or before its position (which
// changes the hash stored there), is ignored and the fold is built from
// genesis; events after the position are always folded as they are
// stored. What a process does not detect, and only the full audit
// (`verify`: VerifyAll) reports: a claim event before the position
// edited in place without its successors being re-chained (reported as
// a broken chain; the open's verification from its recorded head does
// not see it either), and a record whose text was edited in place with
// its position left as it was (reported as RecordedFoldProblem).
// collab_journal_verify answers the reference's shape, chain validity
// only, and does not look at the record. A record that does not decode
// is ignored; one whose settled part does not decode fails the reads
// that need every claim (the listing, marking a review) with an error
// saying so, never with a shorter list.
//
// How it is written. Never from a read: an append (appendEvent) records
// the process's cached fold in its own transaction when that fold stands
// exactly at the head the append extends (checked under the head lock:
// its hash is the new event's prev_hash) and has applied at least
// recordIndependenceAfter claim events more than the record this process
// last read or wrote. The record thus commits or rolls back with the
// append. Before replacing a record the append reads it: one that is in
// the journal and at or beyond the fold's position is kept, so two
// processes never move a record back (a lower but valid one, left by a
// rolled-back append's belief, is only slower). Writing it is best effort:
// a failure leaves the old record and the append goes on.

// recordIndependenceAfter is how many claim events a process's fold must
// have applied beyond the record before an append records it again: a
// fresh process folds at most this many events besides the record's
// (about 20 µs each in a long file), and the record, whose size grows with
// every claim, is rewritten once per this many claims, not per append. A
// journal that never held this many claims never gains the record table.
const recordIndependenceAfter = 64

// recordedFold is the part of a record every reader decodes: how many
// claim events the fold applied and the claims still open (their status
// at the record's position; one past its expiry reads as expired at
// read time). The rest, the settled part (settledPart), is decoded only
// when needed (independence_settled.go).
type recordedFold struct {
	ClaimEvents int64               `json:"claim_events"`
	Open        []IndependenceClaim `json:"open_claims"`
}

// encodeRecord is the fold as a record stores it: the open claims, and
// every other claim with every review as the settled part.
func encodeRecord(claimEvents int64, in independence) (fold, settled []byte, err error) {
	claims, err := in.allClaims()
	if err != nil {
		return nil, nil, err
	}
	reviews, err := in.allReviews()
	if err != nil {
		return nil, nil, err
	}
	open := recordedFold{ClaimEvents: claimEvents, Open: []IndependenceClaim{}}
	rest := settledPart{Claims: []IndependenceClaim{}, Reviews: append([]IndependentReview{}, reviews...)}
	for _, c := range claims {
		if c.Status == ClaimOpen {
			open.Open = append(open.Open, c)
		} else {
			rest.Claims = append(rest.Claims, c)
		}
	}
	if fold, err = json.Marshal(open); err != nil {
		return nil, nil, err
	}
	settled, err = json.Marshal(rest)
	return fold, settled, err
}

// recordedIndependence returns the recorded fold of the workspace when
// the engine keeps one whose position is in the journal as of head, else
// the zero value (fold from genesis).
func recordedIndependence(ctx context.Context, tx independenceReader, workspaceID string, head journal.Anchor) (cachedIndependence, error) {
	records, ok := tx.(IndependenceRecords)
	if !ok {
		return cachedIndependence{}, nil
	}
	r, found, err := records.RecordedIndependence(ctx, workspaceID)
	if err != nil || !found {
		return cachedIndependence{}, err
	}
	if in, err := inJournal(ctx, tx, workspaceID, r.At, head); err != nil || !in {
		return cachedIndependence{}, err
	}
	var f recordedFold
	if json.Unmarshal(r.Fold, &f) != nil || f.ClaimEvents < 0 {
		return cachedIndependence{}, nil
	}
	for _, c := range f.Open {
		if c.Status != ClaimOpen { // not a record this package wrote
			return cachedIndependence{}, nil
		}
	}
	return cachedIndependence{at: r.At, fold: independence{claims: f.Open, settled: &settledIndependence{raw: r.Settled}},
		claimEvents: f.ClaimEvents, recorded: f.ClaimEvents}, nil
}

// recordIndependence records the process's fold of posted's workspace
// inside the transaction that has just appended posted, when the fold
// stands at the head posted extends and lags the record enough (see
// above). It is best effort and never fails the append.
func (s *Store) recordIndependence(ctx context.Context, tx Journal, posted journal.Event) {
	c, ok := s.indep.get(posted.WorkspaceID)
	if !ok || c.claimEvents-c.recorded < recordIndependenceAfter ||
		c.at != (journal.Anchor{EpochID: posted.EpochID, Sequence: posted.Sequence - 1, Hash: posted.PrevHash}) {
		return
	}
	rt, ok := tx.(interface {
		IndependenceRecords
		Events
	})
	if !ok {
		return
	}
	if keep, err := s.recordStands(ctx, rt, posted.WorkspaceID, c.at); err != nil || keep {
		return
	}
	fold, settled, err := encodeRecord(c.claimEvents, c.fold)
	if err != nil {
		return
	}
	if rt.RecordIndependence(ctx, IndependenceRecord{WorkspaceID: posted.WorkspaceID, At: c.at, Fold: fold, Settled: settled}) != nil {
		return
	}
	c.recorded = c.claimEvents
	s.indep.put(posted.WorkspaceID, c)
}

// recordStands reports whether the workspace's record is in the journal
// (as of at, the head this transaction extends) and at or beyond at: such
// a record is kept rather than moved back.
func (s *Store) recordStands(ctx context.Context, rt interface {
	IndependenceRecords
	Events
}, workspaceID string, at journal.Anchor) (bool, error) {
	r, found, err := rt.RecordedIndependence(ctx, workspaceID)
	if err != nil || !found || r.At.Sequence < at.Sequence {
		return false, err
	}
	return inJournal(ctx, rt, workspaceID, r.At, at)
}
