package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// AppendReportInput is one structured report as a session posts it. Nil
// optional fields take the defaults of docs/contract.md#idempotency-receipts:
// confidence "unknown", relation "informs", everything else null.
type AppendReportInput struct {
	IdempotencyKey  string
	TaskID          *string
	ToSessionID     *string
	Kind            string
	Body            string
	EvidenceRefs    []string
	Confidence      *string
	ConfidenceBasis *string
	Limits          *string
	Relation        *string
	TargetReportID  *string
	AuthorityScope  *string
	AuthorityBasis  *string
}

// reportDraft holds a report's normalised fields before it is written.
// EvidenceRefs are stored and journaled in the order given.
type reportDraft struct {
	TaskID          *string
	ToSessionID     *string
	Kind            string
	Body            string
	EvidenceRefs    []string
	Confidence      string
	ConfidenceBasis *string
	Limits          *string
	Relation        string
	TargetReportID  *string
	AuthorityScope  *string
	AuthorityBasis  *string
}

// fields is the draft as the report.append.v2 request object and the
// report.posted payload, which share their keys.
func (d reportDraft) fields() map[string]any {
	return map[string]any{
		"task_id": nullable(d.TaskID), "to_session_id": nullable(d.ToSessionID), "kind": d.Kind, "body": d.Body,
		"evidence_refs": orEmpty(d.EvidenceRefs), "confidence": d.Confidence,
		"confidence_basis": nullable(d.ConfidenceBasis), "limits": nullable(d.Limits), "relation": d.Relation,
		"target_report_id": nullable(d.TargetReportID), "authority_scope": nullable(d.AuthorityScope),
		"authority_basis": nullable(d.AuthorityBasis),
	}
}

func isReportKind(v string) bool {
	switch v {
	case "observation", "inference", "proposal", "decision":
		return true
	}
	return false
}

func isReportConfidence(v string) bool {
	switch v {
	case "high", "medium", "low", "unknown":
		return true
	}
	return false
}

func isReportRelation(v string) bool {
	switch v {
	case "informs", "supports", "challenges", "corrects", "withdraws", "supersedes", "resolves":
		return true
	}
	return false
}

// optionalID validates an identifier that may be left out.
func optionalID(v *string, field string) (*string, error) {
	if v == nil {
		return nil, nil
	}
	id, err := normalize.ID(*v, field)
	if err != nil {
		return nil, err
	}
	return &id, nil
}

// withDefault returns *v, or fallback when v is nil.
func withDefault(v *string, fallback string) string {
	if v == nil {
		return fallback
	}
	return *v
}

// normalizeReport applies the pre-transaction rules in the order of
// docs/contract.md#report-append-order, so the first invalid field is the one
// reported.
func normalizeReport(in AppendReportInput) (reportDraft, error) {
	var d reportDraft
	var err error
	if d.TaskID, err = optionalID(in.TaskID, "task_id"); err != nil {
		return d, err
	}
	if d.ToSessionID, err = optionalID(in.ToSessionID, "to_session_id"); err != nil {
		return d, err
	}
	if d.Kind = in.Kind; !isReportKind(d.Kind) {
		return d, collaberr.New(collaberr.InvalidReportKind, "kind must be observation, inference, proposal or decision")
	}
	if d.Body, err = normalize.Text(in.Body, field.Body); err != nil {
		return d, err
	}
	if d.EvidenceRefs, err = normalize.EvidenceRefs(orEmpty(in.EvidenceRefs)); err != nil {
		return d, err
	}
	if d.Confidence = withDefault(in.Confidence, "unknown"); !isReportConfidence(d.Confidence) {
		return d, collaberr.New(collaberr.InvalidReportConfidence, "confidence must be high, medium, low or unknown")
	}
	return d, normalizeReportTail(&d, in)
}

// normalizeReportTail continues normalizeReport after confidence.
func normalizeReportTail(d *reportDraft, in AppendReportInput) error {
	var err error
	if d.ConfidenceBasis, err = normalize.Optional(in.ConfidenceBasis, field.ConfidenceBasis); err != nil {
		return err
	}
	if d.Limits, err = normalize.Optional(in.Limits, field.Limits); err != nil {
		return err
	}
	if d.Relation = withDefault(in.Relation, "informs"); !isReportRelation(d.Relation) {
		return collaberr.New(collaberr.InvalidReportRelation,
			"relation must be informs, supports, challenges, corrects, withdraws, supersedes or resolves")
	}
	if d.TargetReportID, err = optionalID(in.TargetReportID, "target_report_id"); err != nil {
		return err
	}
	if d.AuthorityScope, err = normalize.Optional(in.AuthorityScope, field.AuthorityScope); err != nil {
		return err
	}
	d.AuthorityBasis, err = normalize.Optional(in.AuthorityBasis, field.AuthorityBasis)
	return err
}

// AppendReport posts a structured report as the credential's session. It
// needs no lease. The report and its report.posted event are written in one
// transaction with the idempotency receipt, or not at all; the result is
// {report}.
func (s *Store) AppendReport(ctx context.Context, cred Credential, in AppendReportInput) (*answer.Of[ReportAnswer], error) {
	d, err := normalizeReport(in)
	if err != nil {
		return nil, err
	}
	return mutateAsSession(ctx, s, sessionMutation[ReportAnswer]{
		cred: cred, operation: "report.append.v2", key: in.IdempotencyKey, request: d.fields(),
		// A report writes its event, its row, the receipt and the session.
		unguarded: true,
		apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*ReportAnswer, error) {
			if err := validateReportInput(ctx, tx, sess, d); err != nil {
				return nil, err
			}
			r, posted, err := s.postReport(ctx, tx, sess, d)
			if err != nil {
				return nil, err
			}
			if err := s.releaseByFinding(ctx, tx, sess, r, posted); err != nil {
				return nil, err
			}
			return &ReportAnswer{Report: r}, nil
		},
	})
}

// appendReportInternal writes a report without validating it against the
// workspace: first its report.posted event, then the row that points at
// that event's sequence. Completion and review reports use it directly.
func (s *Store) appendReportInternal(ctx context.Context, tx reportWriter, sess CoordinationSession, d reportDraft) (Report, error) {
	r, _, err := s.postReport(ctx, tx, sess, d)
	return r, err
}

// postReport is appendReportInternal that also hands back the
// report.posted event it appended.
func (s *Store) postReport(ctx context.Context, tx reportWriter, sess CoordinationSession, d reportDraft) (Report, journal.Event, error) {
	id := "report_" + newUUID()
	sessionID := sess.ID
	e, err := s.appendEvent(ctx, tx, sess.WorkspaceID, newEvent{
		Type: journal.KindReportPosted, EntityID: id, Actor: sess.Actor, SessionID: &sessionID, Payload: d.fields(),
	})
	if err != nil {
		return Report{}, journal.Event{}, err
	}
	r := Report{
		ID: id, WorkspaceID: sess.WorkspaceID, TaskID: d.TaskID, FromSessionID: &sessionID, FromActor: sess.Actor,
		ToSessionID: d.ToSessionID, Kind: d.Kind, Body: d.Body, EvidenceRefs: orEmpty(d.EvidenceRefs),
		Confidence: d.Confidence, ConfidenceBasis: d.ConfidenceBasis, Limits: d.Limits, Relation: d.Relation,
		TargetReportID: d.TargetReportID, AuthorityScope: d.AuthorityScope, AuthorityBasis: d.AuthorityBasis,
		CreatedAt: e.OccurredAt, EventSequence: e.Sequence,
	}
	if err := tx.InsertReport(ctx, r); err != nil {
		return Report{}, journal.Event{}, err
	}
	return r, e, nil
}

// reportWriter is what posting a report needs: the journal, for its
// report.posted event, and the reports.
type reportWriter interface {
	Journal
	Reports
}

// ListReportsInput selects reports for collab_report_list. Nil fields mean
// the defaults: after sequence 0, limit 100, no task or recipient filter.
type ListReportsInput struct {
	WorkspaceID        string
	AfterEventSequence *int64
	Limit              *int64
	TaskID             *string
	ToSessionID        *string
}

// ListReports returns the workspace's reports posted after the given event
// sequence, oldest first, optionally only those about one task or
// addressed to one session. It never writes.
func (s *Store) ListReports(ctx context.Context, in ListReportsInput) ([]Report, error) {
	var out []Report
	err := s.readTx(ctx, func(tx Tx) error {
		if _, err := readWorkspace(ctx, tx, in.WorkspaceID); err != nil {
			return err
		}
		f, err := reportListFilter(in)
		if err != nil {
			return err
		}
		out, err = queryReports(ctx, tx, in.WorkspaceID, f)
		return err
	})
	return out, err
}

func reportListFilter(in ListReportsInput) (ReportFilter, error) {
	f := ReportFilter{Limit: 100}
	if in.AfterEventSequence != nil {
		if f.After = *in.AfterEventSequence; f.After < 0 {
			return f, collaberr.New(collaberr.InvalidCursor, "after_event_sequence must be a whole number of zero or more")
		}
	}
	if in.Limit != nil {
		if *in.Limit < 1 || *in.Limit > 500 {
			return f, collaberr.New(collaberr.InvalidLimit, "limit must be between 1 and 500 reports")
		}
		f.Limit = int(*in.Limit)
	}
	task, err := optionalID(in.TaskID, "task_id")
	if err != nil {
		return f, err
	}
	to, err := optionalID(in.ToSessionID, "to_session_id")
	if err != nil {
		return f, err
	}
	f.TaskID, f.ToSessionID = withDefault(task, ""), withDefault(to, "")
	return f, nil
}
