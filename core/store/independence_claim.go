package store

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// ClaimAnswer is what claiming or releasing answers: the claim as it now
// stands, and whether the call changed nothing (an equal open claim
// already existed, or the claim had already ended).
type ClaimAnswer struct {
	Claim     IndependenceClaim `json:"claim"`
	Unchanged bool              `json:"unchanged"`
	// Released lists, on a release, the reports that were withheld from
	// the claimant and are readable now.
	Released []string `json:"released_report_ids,omitempty"`
}

// ClaimIndependence opens an independence claim of the credential's
// session on one subject and journals it (independence.claimed), so that
// every session sees who is verifying what. A second claim on a subject
// the session already holds open answers the open one and writes nothing,
// which makes a retry safe without an idempotency key.
func (s *Store) ClaimIndependence(ctx context.Context, cred Credential, in ClaimIndependenceInput) (ClaimAnswer, error) {
	subject, err := in.subject()
	if err != nil {
		return ClaimAnswer{}, err
	}
	ttl, err := in.duration()
	if err != nil {
		return ClaimAnswer{}, err
	}
	note, err := normalize.Optional(in.Note, field.MarkNote)
	if err != nil {
		return ClaimAnswer{}, err
	}
	var out ClaimAnswer
	err = s.writeTx(ctx, func(tx Tx) error {
		sess, err := authenticate(ctx, tx, cred, false)
		if err != nil {
			return err
		}
		if err := subjectExists(ctx, tx, sess.WorkspaceID, subject); err != nil {
			return err
		}
		fold, err := s.readIndependence(ctx, tx, sess.WorkspaceID)
		if err != nil {
			return err
		}
		now := s.nowISO()
		for _, c := range fold.openClaims(sess.ID, now) {
			if c.Subject == subject {
				out = ClaimAnswer{Claim: c, Unchanged: true}
				return touchSession(ctx, tx, sess, now)
			}
		}
		c := IndependenceClaim{ID: "independence_" + newUUID(), WorkspaceID: sess.WorkspaceID, Subject: subject,
			SessionID: sess.ID, Actor: sess.Actor, Note: note, ClaimedAt: now,
			ExpiresAt: FormatTime(s.now().Add(ttl)), Status: ClaimOpen}
		sessionID := sess.ID
		e, err := s.appendEvent(ctx, tx, sess.WorkspaceID, newEvent{Type: journal.KindIndependenceClaimed, EntityID: c.ID,
			Actor: sess.Actor, SessionID: &sessionID, Payload: map[string]any{"claim": claimMap(c)}})
		if err != nil {
			return err
		}
		c.EventSequence = e.Sequence
		out = ClaimAnswer{Claim: c}
		return touchSession(ctx, tx, sess, now)
	})
	return out, err
}

// claimMap is a claim as its independence.claimed payload journals it:
// what was claimed, never how it ended.
func claimMap(c IndependenceClaim) map[string]any {
	return map[string]any{
		"id": c.ID, "workspace_id": c.WorkspaceID, "subject": map[string]any{"kind": c.Subject.Kind, "id": c.Subject.ID},
		"session_id": c.SessionID, "actor": c.Actor, "note": nullable(c.Note), "claimed_at": c.ClaimedAt,
		"expires_at": c.ExpiresAt,
	}
}

// subjectExists refuses a claim on a task or report the workspace does
// not hold; a topic needs nothing to exist yet.
func subjectExists(ctx context.Context, tx Tx, workspaceID string, sub IndependenceSubject) error {
	switch sub.Kind {
	case ClaimOnTask:
		if _, found, err := tx.Task(ctx, workspaceID, sub.ID); err != nil || !found {
			if err != nil {
				return err
			}
			return collaberr.Newf(collaberr.InvalidIndependenceSubject, "Task '%s' was not found in this workspace", sub.ID)
		}
	case ClaimOnReport:
		r, found, err := findReport(ctx, tx, sub.ID)
		if err != nil {
			return err
		}
		if !found || r.WorkspaceID != workspaceID {
			return collaberr.Newf(collaberr.InvalidIndependenceSubject, "Report '%s' was not found in this workspace", sub.ID)
		}
	}
	return nil
}

// ReleaseIndependence ends an open claim of the credential's session
// early, with a reason, and journals it (independence.released). Only the
// claimant releases; a claim that already ended answers as it stands and
// writes nothing.
func (s *Store) ReleaseIndependence(ctx context.Context, cred Credential, claimID, reason string) (ClaimAnswer, error) {
	why, err := normalize.Text(reason, field.ResetReason)
	if err != nil {
		return ClaimAnswer{}, err
	}
	var out ClaimAnswer
	err = s.writeTx(ctx, func(tx Tx) error {
		sess, err := authenticate(ctx, tx, cred, false)
		if err != nil {
			return err
		}
		fold, err := s.readIndependence(ctx, tx, sess.WorkspaceID)
		if err != nil {
			return err
		}
		c, found, err := fold.claim(claimID)
		if err != nil {
			return err
		}
		if !found {
			return collaberr.Newf(collaberr.IndependenceClaimNotFound, "Independence claim '%s' was not found in this workspace", claimID)
		}
		if c.SessionID != sess.ID {
			return collaberr.New(collaberr.IndependenceNotClaimant, "Only the claimant's session releases a claim early").
				With("claim_id", c.ID).With("claimant", c.Actor)
		}
		now := s.nowISO()
		if !c.openAt(now) {
			out = ClaimAnswer{Claim: c.settledAt(now), Unchanged: true}
			return touchSession(ctx, tx, sess, now)
		}
		released, err := s.withheldUnder(ctx, tx, fold, sess, c, now)
		if err != nil {
			return err
		}
		if out.Claim, err = s.endClaim(ctx, tx, sess, c, ClaimReleased, &why, nil, now); err != nil {
			return err
		}
		out.Released = released
		return touchSession(ctx, tx, sess, now)
	})
	return out, err
}

// endClaim journals the end of an open claim and returns it ended.
func (s *Store) endClaim(ctx context.Context, tx Tx, sess CoordinationSession, c IndependenceClaim, status string, note, finding *string, now string) (IndependenceClaim, error) {
	sessionID := sess.ID
	if _, err := s.appendEvent(ctx, tx, sess.WorkspaceID, newEvent{Type: journal.KindIndependenceReleased, EntityID: c.ID,
		Actor: sess.Actor, SessionID: &sessionID, Payload: map[string]any{"claim_id": c.ID, "status": status,
			"note": nullable(note), "finding_report_id": nullable(finding), "released_at": now}}); err != nil {
		return c, err
	}
	c.Status, c.ReleasedAt, c.ReleaseNote, c.FindingReportID = status, &now, note, finding
	return c, nil
}

// withheldUnder lists the reports claim c withholds from sess now, in
// journal order: what a release makes readable.
func (s *Store) withheldUnder(ctx context.Context, tx Tx, fold independence, sess CoordinationSession, c IndependenceClaim, now string) ([]string, error) {
	w, err := s.buildWithholding(ctx, tx, sess.WorkspaceID, sess.ID, []IndependenceClaim{c}, now)
	if err != nil {
		return nil, err
	}
	reports, err := queryReports(ctx, tx, sess.WorkspaceID, ReportFilter{})
	if err != nil {
		return nil, err
	}
	out := []string{}
	for i := range reports {
		if _, ok := w.reportClaim(&reports[i]); ok {
			out = append(out, reports[i].ID)
		}
	}
	return out, nil
}

// releaseByFinding ends every open claim of sess that report r, its own
// report, is on: posting a finding releases the claim it was formed under.
// It runs inside the transaction that writes r.
func (s *Store) releaseByFinding(ctx context.Context, tx Tx, sess CoordinationSession, r Report, posted journal.Event) error {
	fold, err := s.independenceBefore(ctx, tx, sess.WorkspaceID, posted)
	if err != nil {
		return err
	}
	now := s.nowISO()
	open := fold.openClaims(sess.ID, now)
	if len(open) == 0 {
		return nil
	}
	w, err := s.buildWithholding(ctx, tx, sess.WorkspaceID, sess.ID, open, now)
	if err != nil {
		return err
	}
	for _, c := range w.covering(&r) {
		id := r.ID
		if _, err := s.endClaim(ctx, tx, sess, c, ClaimReleasedByFinding, nil, &id, now); err != nil {
			return err
		}
	}
	return nil
}

// markIndependentReview journals that a review was formed blind when its
// reviewer's claim on the task is open or ended by the reviewer's own
// finding; a review after an explicit release or an expiry is not marked.
func (s *Store) markIndependentReview(ctx context.Context, tx Tx, sess CoordinationSession, review TaskReview, reportID string) error {
	fold, err := s.readIndependence(ctx, tx, sess.WorkspaceID)
	if err != nil {
		return err
	}
	claims, err := fold.allClaims()
	if err != nil {
		return err
	}
	for i := len(claims) - 1; i >= 0; i-- {
		c := claims[i]
		if c.SessionID != sess.ID || c.Subject != (IndependenceSubject{Kind: ClaimOnTask, ID: review.TaskID}) {
			continue
		}
		if c.Status != ClaimReleasedByFinding && !c.openAt(s.nowISO()) {
			continue
		}
		sessionID := sess.ID
		m := IndependentReview{TaskID: review.TaskID, ReviewID: review.ID, ReviewReportID: reportID, ClaimID: c.ID,
			ReviewerSessionID: sess.ID, ReviewerActor: sess.Actor, Outcome: review.Outcome, RecordedAt: s.nowISO()}
		_, err := s.appendEvent(ctx, tx, sess.WorkspaceID, newEvent{Type: journal.KindIndependentReviewMarked, EntityID: review.TaskID,
			Actor: sess.Actor, SessionID: &sessionID, Payload: map[string]any{"review": map[string]any{
				"task_id": m.TaskID, "review_id": m.ReviewID, "review_report_id": m.ReviewReportID, "claim_id": m.ClaimID,
				"reviewer_session_id": m.ReviewerSessionID, "reviewer_actor": m.ReviewerActor, "outcome": m.Outcome,
				"recorded_at": m.RecordedAt}}})
		return err
	}
	return nil
}
