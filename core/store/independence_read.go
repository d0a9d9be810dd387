package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/agenttool/collab/core/journal"
)

// independenceTypes are the event types the claims are folded from.
var independenceTypes = []string{
	string(journal.KindIndependenceClaimed), string(journal.KindIndependenceReleased),
	string(journal.KindIndependentReviewMarked),
}

// independence is a workspace's claims and blind reviews, folded from its
// journal in sequence order. It is never changed once built: apply
// returns a new value, so a cached one can be shared between readers.
// A fold that started from a record keeps the record's settled claims
// and reviews apart (settled, independence_settled.go): claims and
// reviews are then the others, and every claim still open is among
// them; allClaims and allReviews give the whole fold.
type independence struct {
	claims  []IndependenceClaim
	reviews []IndependentReview
	settled *settledIndependence
}

// claim returns the claim of id and whether the journal holds it.
func (in independence) claim(id string) (IndependenceClaim, bool, error) {
	for _, c := range in.claims {
		if c.ID == id {
			return c, true, nil
		}
	}
	settled, _, err := in.settled.decoded()
	for _, c := range settled {
		if c.ID == id {
			return c, true, nil
		}
	}
	return IndependenceClaim{}, false, err
}

// openClaims are the claims of session that still withhold at now (none
// of them settled).
func (in independence) openClaims(sessionID, now string) []IndependenceClaim {
	var out []IndependenceClaim
	for _, c := range in.claims {
		if c.SessionID == sessionID && c.openAt(now) {
			out = append(out, c)
		}
	}
	return out
}

// The payloads of the three event types, as journaled.
type (
	claimedPayload struct {
		Claim IndependenceClaim `json:"claim"`
	}
	releasedPayload struct {
		ClaimID         string  `json:"claim_id"`
		Status          string  `json:"status"`
		Note            *string `json:"note"`
		FindingReportID *string `json:"finding_report_id"`
		ReleasedAt      string  `json:"released_at"`
	}
	reviewMarkedPayload struct {
		Review IndependentReview `json:"review"`
	}
)

// with folds events (of independenceTypes, in sequence order) into a copy
// of in. A payload this version cannot read is an error, never skipped:
// withholding less than was claimed would break the claim silently.
func (in independence) with(events []journal.Event) (independence, error) {
	if len(events) == 0 {
		return in, nil
	}
	out := independence{claims: append([]IndependenceClaim(nil), in.claims...), reviews: append([]IndependentReview(nil), in.reviews...),
		settled: in.settled}
	for i := range events {
		if err := out.apply(&events[i]); err != nil {
			return in, fmt.Errorf("read %s event %d: %w", events[i].Type, events[i].Sequence, err)
		}
	}
	return out, nil
}

func (in *independence) apply(e *journal.Event) error {
	switch journal.Kind(e.Type) {
	case journal.KindIndependenceClaimed:
		var p claimedPayload
		if err := json.Unmarshal(e.PayloadJSON, &p); err != nil {
			return err
		}
		p.Claim.Status, p.Claim.EventSequence = ClaimOpen, e.Sequence
		in.claims = append(in.claims, p.Claim)
	case journal.KindIndependenceReleased:
		var p releasedPayload
		if err := json.Unmarshal(e.PayloadJSON, &p); err != nil {
			return err
		}
		for i := range in.claims {
			if c := &in.claims[i]; c.ID == p.ClaimID && c.Status == ClaimOpen {
				c.Status, c.ReleasedAt, c.ReleaseNote, c.FindingReportID = p.Status, &p.ReleasedAt, p.Note, p.FindingReportID
			}
		}
	case journal.KindIndependentReviewMarked:
		var p reviewMarkedPayload
		if err := json.Unmarshal(e.PayloadJSON, &p); err != nil {
			return err
		}
		p.Review.EventSequence = e.Sequence
		in.reviews = append(in.reviews, p.Review)
	}
	return nil
}

// independenceCache keeps each workspace's fold with the journal position
// it was read through, so a read only scans the events after it. The
// position's hash is checked against the journal before the fold is
// reused: the chain makes an equal hash an equal prefix, so a fold of a
// rolled-back transaction or of a replaced file is never trusted.
type independenceCache struct {
	mu    sync.Mutex
	folds map[string]cachedIndependence
}

type cachedIndependence struct {
	at   journal.Anchor
	fold independence
	// claimEvents is how many claim events the fold applied from genesis
	// through at; recorded is the claimEvents of the newest record this
	// process read or wrote (0 for none), so that an append knows when
	// the record lags enough to be advanced (recordIndependenceAfter).
	claimEvents, recorded int64
}

func (c *independenceCache) get(workspaceID string) (cachedIndependence, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.folds[workspaceID]
	return v, ok
}

func (c *independenceCache) put(workspaceID string, v cachedIndependence) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.folds == nil {
		c.folds = map[string]cachedIndependence{}
	}
	if old, ok := c.folds[workspaceID]; !ok || old.at.Sequence <= v.at.Sequence {
		c.folds[workspaceID] = v
	}
}

// readIndependence folds the workspace's claims as of the transaction's
// snapshot, from the cached fold when its position is still in the journal.
func (s *Store) readIndependence(ctx context.Context, tx independenceReader, workspaceID string) (independence, error) {
	head, found, err := workspaceHead(ctx, tx, workspaceID)
	if err != nil || !found {
		return independence{}, err
	}
	base := cachedIndependence{}
	c, ok := s.indep.get(workspaceID)
	if ok && c.at == head {
		// Nothing was appended since the fold: the head is its event.
		return c.fold, nil
	}
	if ok {
		in, err := inJournal(ctx, tx, workspaceID, c.at, head)
		if err != nil {
			return independence{}, err
		}
		if in {
			base = c
		}
	}
	if base.at.Sequence == 0 {
		// No fold of this process stands in the journal: start from the
		// recorded one when the engine keeps one that does.
		rec, err := recordedIndependence(ctx, tx, workspaceID, head)
		if err != nil {
			return independence{}, err
		}
		if rec.at.Sequence > 0 {
			base = rec
		}
	}
	if base.at.Sequence == head.Sequence && base.at.EpochID == head.EpochID {
		return base.fold, nil
	}
	events, err := tx.Events(ctx, workspaceID, EventRange{After: base.at.Sequence, Types: independenceTypes, Limit: -1})
	if err != nil {
		return independence{}, err
	}
	fold, err := base.fold.with(events)
	if err != nil {
		return independence{}, err
	}
	s.indep.put(workspaceID, cachedIndependence{at: head, fold: fold,
		claimEvents: base.claimEvents + int64(len(events)), recorded: base.recorded})
	return fold, nil
}

// inJournal reports whether at is a position of the workspace's journal
// as of head: the same epoch, not beyond the head, and (after genesis)
// the event stored at its sequence has its hash. The chain makes an
// equal hash an equal prefix, so a fold read through at is the fold of
// this journal's first at.Sequence events.
func inJournal(ctx context.Context, tx Events, workspaceID string, at, head journal.Anchor) (bool, error) {
	if at.EpochID != head.EpochID || at.Sequence < 0 || at.Sequence > head.Sequence {
		return false, nil
	}
	if at.Sequence == 0 {
		return true, nil
	}
	got, err := tx.Events(ctx, workspaceID, EventRange{After: at.Sequence - 1, Limit: 1})
	if err != nil {
		return false, err
	}
	return len(got) == 1 && got[0].Sequence == at.Sequence && got[0].Hash == at.Hash, nil
}

// independenceBefore is the workspace's fold for a transaction that has
// just appended posted, an event that is not itself a claim event: the
// cached fold when it stands at the event posted extends (its position's
// hash is posted's prev_hash, which this transaction read under the head
// lock), so a report costs no read; else readIndependence. The fold then
// stands at posted. Should this transaction roll back, that position is
// never taken for the journal's: every later use compares it with the
// head or the stored event it names, and a different event at that
// sequence has a different hash.
func (s *Store) independenceBefore(ctx context.Context, tx independenceReader, workspaceID string, posted journal.Event) (independence, error) {
	if c, ok := s.indep.get(workspaceID); ok && c.at == (journal.Anchor{EpochID: posted.EpochID, Sequence: posted.Sequence - 1, Hash: posted.PrevHash}) {
		c.at = journal.Anchor{EpochID: posted.EpochID, Sequence: posted.Sequence, Hash: posted.Hash}
		s.indep.put(workspaceID, c)
		return c.fold, nil
	}
	return s.readIndependence(ctx, tx, workspaceID)
}

// workspaceHead reads one workspace's head from its row, which takes no
// lock (a read must not serialise with appends) and is the read a poll
// already makes, so the PostgreSQL read-ahead answers it from its batch.
func workspaceHead(ctx context.Context, tx independenceReader, workspaceID string) (journal.Anchor, bool, error) {
	w, found, err := tx.Workspace(ctx, workspaceID)
	if err != nil || !found {
		return journal.Anchor{}, found, err
	}
	return journal.Anchor{EpochID: w.EpochID, Sequence: w.EventHeadSequence, Hash: w.EventHeadHash}, true, nil
}

// independenceReader is what folding the claims reads: the workspace's
// head and its events.
type independenceReader interface {
	Events
	Workspaces
}

// IndependenceView is every claim of a workspace, as of now, and every
// review marked independent: what anyone may read, claimant or not.
type IndependenceView struct {
	Claims  []IndependenceClaim `json:"claims"`
	Reviews []IndependentReview `json:"independent_reviews"`
}

// Independence reads a workspace's claims (oldest first, each with its
// status at now) and its independent reviews.
func (s *Store) Independence(ctx context.Context, workspaceID string) (IndependenceView, error) {
	out := IndependenceView{Claims: []IndependenceClaim{}, Reviews: []IndependentReview{}}
	err := s.readTx(ctx, func(tx Tx) error {
		if _, err := readWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		fold, err := s.readIndependence(ctx, tx, workspaceID)
		if err != nil {
			return err
		}
		claims, err := fold.allClaims()
		if err != nil {
			return err
		}
		reviews, err := fold.allReviews()
		if err != nil {
			return err
		}
		now := s.nowISO()
		for _, c := range claims {
			out.Claims = append(out.Claims, c.settledAt(now))
		}
		out.Reviews = append(out.Reviews, reviews...)
		return nil
	})
	return out, err
}
