package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// Notes recorded with completions.
const (
	legacyCompletionNote   = "Completion records the reporting actor's outcome; it is not coordinator review or acceptance."
	pendingCompletionNote  = "Reported completion does not satisfy dependencies until a distinct session accepts it."
	reportedCompletionNote = "Reported completion satisfies this task's explicit reported-only policy; it is not external acceptance."
)

// CompleteInput reports a held task complete.
type CompleteInput struct {
	Lease           LeaseInput
	Summary         string
	Confidence      *string
	ConfidenceBasis *string
	Limits          *string
	EvidenceRefs    []string
}

type completeFields struct {
	summary, confidence string
	basis, limits       *string
	refs                []string
}

func normalizeComplete(in CompleteInput) (completeFields, error) {
	var f completeFields
	var err error
	if f.summary, err = normalize.Text(in.Summary, field.Summary); err != nil {
		return f, err
	}
	f.confidence = "unknown"
	if in.Confidence != nil {
		f.confidence = *in.Confidence
	}
	if !isReportConfidence(f.confidence) {
		return f, collaberr.New(collaberr.InvalidReportConfidence, "confidence must be high, medium, low or unknown")
	}
	if f.basis, err = normalize.Optional(in.ConfidenceBasis, field.ConfidenceBasis); err != nil {
		return f, err
	}
	if f.limits, err = normalize.Optional(in.Limits, field.Limits); err != nil {
		return f, err
	}
	f.refs, err = normalize.EvidenceRefs(orEmpty(in.EvidenceRefs))
	return f, err
}

// CompleteTask reports completion in legacy mode: the holder's own report,
// which is not review or acceptance.
func (s *Store) CompleteTask(ctx context.Context, who Actor, in CompleteInput) (*answer.Of[TaskAnswer], error) {
	if cred, ok := who.Session(); ok {
		return s.completeTaskAsSession(ctx, cred, in)
	}
	return s.completeTaskAsLabel(ctx, who, in)
}

// completeTaskAsLabel reports completion in legacy mode.
func (s *Store) completeTaskAsLabel(ctx context.Context, who Actor, in CompleteInput) (*answer.Of[TaskAnswer], error) {
	lc, err := newLeaseCall(who, in.Lease)
	if err != nil {
		return nil, err
	}
	summary, err := normalize.Text(in.Summary, field.Summary)
	if err != nil {
		return nil, err
	}
	return mutateLease(ctx, s, lc, leaseChange[TaskAnswer]{operation: "task.complete", extra: map[string]any{"summary": summary},
		apply: func(ctx context.Context, tx Tx, t Task, h holder, now string) (*TaskAnswer, error) {
			if err := s.expireTaskHandoffs(ctx, tx, t.WorkspaceID, t.ID, "task_completed", h.actor, nil, now); err != nil {
				return nil, err
			}
			if err := tx.UpdateTask(ctx, t, completedLegacy(t, summary, now)); err != nil {
				return nil, err
			}
			return s.taskEvent(ctx, tx, t, h, journal.KindTaskCompleted, map[string]any{"completion_basis": "actor_reported",
				"note": legacyCompletionNote, "summary": summary, "version": t.Version + 1}, now)
		}})
}

// CompleteTaskForSession reports completion with a structured completion
// report and the server-observed result checkpoint. A reviewed task then
// waits for a distinct session to accept it.
func (s *Store) completeTaskAsSession(ctx context.Context, cred Credential, in CompleteInput) (*answer.Of[TaskAnswer], error) {
	lf, err := normalizeLease(in.Lease)
	if err != nil {
		return nil, err
	}
	f, err := normalizeComplete(in)
	if err != nil {
		return nil, err
	}
	request := withExtra(leaseRequest("", "", lf, false), map[string]any{"summary": f.summary, "confidence": f.confidence,
		"confidence_basis": nullable(f.basis), "limits": nullable(f.limits), "evidence_refs": f.refs})
	sess, out, hit, err := sessionReceipt[TaskAnswer](ctx, s, cred, "task.complete.v2", lf.key, request)
	if err != nil || hit {
		return out, err
	}
	prep, err := s.prepareSessionCheckpoint(ctx, sess)
	if err != nil {
		return nil, err
	}
	return mutateAsSession(ctx, s, sessionMutation[TaskAnswer]{cred: cred, operation: "task.complete.v2", key: lf.key, request: request,
		apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*TaskAnswer, error) {
			now := s.nowISO()
			h := holder{actor: sess.Actor, sessionID: &sess.ID}
			t, err := requireLease(ctx, tx, sess.WorkspaceID, lf, h, now)
			if err != nil {
				return nil, err
			}
			if err := resolveEvidence(ctx, tx, sess.WorkspaceID, f.refs); err != nil {
				return nil, err
			}
			if err := prep.recheck(ctx, tx, sess.ID, now); err != nil {
				return nil, err
			}
			return s.recordCompletion(ctx, tx, sess, t, f, prep, now)
		}})
}

func (s *Store) recordCompletion(ctx context.Context, tx Tx, sess CoordinationSession, t Task, f completeFields, prep prepared, now string) (*TaskAnswer, error) {
	report, posted, err := s.postReport(ctx, tx, sess, reportDraft{TaskID: &t.ID, Kind: "observation", Body: f.summary,
		EvidenceRefs: f.refs, Confidence: f.confidence, ConfidenceBasis: f.basis, Limits: f.limits, Relation: "informs"})
	if err != nil {
		return nil, err
	}
	if err := s.releaseByFinding(ctx, tx, sess, report, posted); err != nil {
		return nil, err
	}
	if err := s.expireTaskHandoffs(ctx, tx, t.WorkspaceID, t.ID, "task_reported_complete", sess.Actor, nil, now); err != nil {
		return nil, err
	}
	review, eventType, note := ReviewNotRequired, journal.KindTaskCompleted, reportedCompletionNote
	if t.CompletionPolicy == "accepted" {
		review, eventType, note = ReviewPending, journal.KindTaskReportedComplete, pendingCompletionNote
	}
	if err := tx.UpdateTask(ctx, t, reportedComplete(t, Completion{ReviewStatus: review, Summary: f.summary,
		ResultCheckpoint: prep.rawCheckpoint(), ReportID: report.ID, ReportedBy: sess.Actor, ReportedBySessionID: sess.ID}, now)); err != nil {
		return nil, err
	}
	h := holder{actor: sess.Actor, sessionID: &sess.ID}
	return s.taskEvent(ctx, tx, t, h, eventType, map[string]any{"completion_report_id": report.ID, "completion_policy": string(t.CompletionPolicy),
		"review_status": string(review), "review_generation": t.ReviewGeneration + 1, "result_checkpoint": prep.rawCheckpoint(),
		"summary": f.summary, "version": t.Version + 1, "note": note}, now)
}
