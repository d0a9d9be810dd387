package store

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
)

// settledIndependence is the part of a recorded fold that no later claim
// event can change: the claims that had ended (released, by the
// claimant or by its finding) and the reviews marked independent. A
// release only ever touches an open claim, so a fold keeps working on
// its open claims alone and decodes this part only when a caller needs
// every claim (the listing, a review's marking, a lookup by id that the
// open claims do not answer). In a long history it is nearly all of the
// record, and decoding it costs several milliseconds that a read of
// what withholds (every collab_next) no longer pays.
type settledIndependence struct {
	raw     []byte
	once    sync.Once
	claims  []IndependenceClaim
	reviews []IndependentReview
	err     error
}

// settledPart is how a record encodes the settled part.
type settledPart struct {
	Claims  []IndependenceClaim `json:"claims"`
	Reviews []IndependentReview `json:"independent_reviews"`
}

// decoded returns the settled claims and reviews, decoding them once. A
// nil receiver holds none.
func (s *settledIndependence) decoded() ([]IndependenceClaim, []IndependentReview, error) {
	if s == nil {
		return nil, nil, nil
	}
	s.once.Do(func() {
		var p settledPart
		if err := json.Unmarshal(s.raw, &p); err != nil {
			s.err = fmt.Errorf("decode the settled claims of the recorded independence fold (the record was changed "+
				"outside collab; once it is removed, the claims are folded from genesis): %w", err)
			return
		}
		s.claims, s.reviews = p.Claims, p.Reviews
	})
	return s.claims, s.reviews, s.err
}

// allClaims is every claim of the fold in sequence order: the settled
// ones and the others merged by the sequence of their claim event.
func (in independence) allClaims() ([]IndependenceClaim, error) {
	settled, _, err := in.settled.decoded()
	if err != nil || len(settled) == 0 {
		return in.claims, err
	}
	out := append(append(make([]IndependenceClaim, 0, len(settled)+len(in.claims)), settled...), in.claims...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].EventSequence < out[j].EventSequence })
	return out, nil
}

// allReviews is every review of the fold in sequence order: the settled
// ones were all marked before any other.
func (in independence) allReviews() ([]IndependentReview, error) {
	_, settled, err := in.settled.decoded()
	if err != nil || len(settled) == 0 {
		return in.reviews, err
	}
	return append(append(make([]IndependentReview, 0, len(settled)+len(in.reviews)), settled...), in.reviews...), nil
}
