package mcp

import (
	"context"

	"github.com/agenttool/collab/core/store"
)

// handleReportAppend posts a report; it exists only for a bound session.
func handleReportAppend(ctx context.Context, p *Process, a Args) (any, error) {
	cred, err := p.sessionOnly(a, "reports are posted by a bound session only: call collab_session_start first "+
		"(without a session, collab_decision_record with actor records a plain decision)")
	if err != nil {
		return nil, err
	}
	return answered(p.store.AppendReport(ctx, cred, store.AppendReportInput{
		IdempotencyKey: a.String("idempotency_key"), TaskID: a.OptString("task_id"),
		ToSessionID: a.OptString("to_session_id"), Kind: a.String("kind"), Body: a.String("body"),
		EvidenceRefs: a.Strings("evidence_refs"), Confidence: a.OptString("confidence"),
		ConfidenceBasis: a.OptString("confidence_basis"), Limits: a.OptString("limits"),
		Relation: a.OptString("relation"), TargetReportID: a.OptString("target_report_id"),
		AuthorityScope: a.OptString("authority_scope"), AuthorityBasis: a.OptString("authority_basis"),
	}))
}

// handleReportList reads reports in either mode, from any workspace.
func handleReportList(ctx context.Context, p *Process, a Args) (any, error) {
	reports, err := p.store.ListReports(ctx, store.ListReportsInput{
		WorkspaceID: a.String("workspace_id"), AfterEventSequence: a.OptInt("after_event_sequence"),
		Limit: a.OptInt("limit"), TaskID: a.OptString("task_id"), ToSessionID: a.OptString("to_session_id"),
	})
	if err != nil {
		return nil, err
	}
	w, err := p.withholding(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]any{"reports": w.Reports(reports)}, nil
}

// handleDecisionRecord stores a legacy decision, or in a bound session a
// decision report (the actor argument is then ignored).
func handleDecisionRecord(ctx context.Context, p *Process, a Args) (any, error) {
	in := store.RecordDecisionInput{
		WorkspaceID: a.String("workspace_id"), IdempotencyKey: a.String("idempotency_key"),
		Topic: a.String("topic"), Decision: a.String("decision"), Rationale: a.OptString("rationale"),
		AuthorityScope: a.OptString("authority_scope"), AuthorityBasis: a.OptString("authority_basis"),
	}
	if !p.seat.Bound() {
		actor, err := legacyActor(a)
		if err != nil {
			return nil, err
		}
		return answered(p.store.RecordDecision(ctx, store.LabelActor(actor), in))
	}
	if err := p.requireWorkspace(in.WorkspaceID); err != nil {
		return nil, err
	}
	cred, err := p.boundCredential(false)
	if err != nil {
		return nil, err
	}
	return answered(p.store.RecordDecision(ctx, store.SessionActor(cred), in))
}
