package mcp

import (
	"context"
	"github.com/agenttool/collab/core/field"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// handleReportReceipts reads the delivery receipts of the named subjects,
// or of the bound session's newest addressed reports. It never writes.
func handleReportReceipts(ctx context.Context, p *Process, a Args) (any, error) {
	ws := a.String("workspace_id")
	if _, err := p.store.Workspace(ctx, ws); err != nil {
		return nil, err
	}
	var subjects []store.Subject
	for _, id := range a.Strings("report_ids") {
		subjects = append(subjects, store.Subject{Kind: store.SubjectReport, ID: id})
	}
	for _, id := range a.Strings("handoff_ids") {
		subjects = append(subjects, store.Subject{Kind: store.SubjectHandoff, ID: id})
	}
	if len(subjects) == 0 {
		if !p.seat.Bound() {
			return nil, collaberr.New(collaberr.InvalidDeliveryMark, "Name report_ids or handoff_ids, or bind a session to read the receipts of the reports it sent")
		}
		limit := int(field.ReceiptLimit.Spec().Default)
		if n := a.OptInt("limit"); n != nil {
			limit = int(*n)
		}
		var err error
		if subjects, err = p.store.SentAddressed(ctx, ws, p.seat.SessionID(), limit); err != nil {
			return nil, err
		}
	}
	receipts, err := p.store.DeliveryReceiptsOf(ctx, ws, subjects)
	if err != nil {
		return nil, err
	}
	return map[string]any{"workspace_id": ws, "receipts": receipts}, nil
}

// handleReportMark records the bound session's mark on a subject
// addressed to it.
func handleReportMark(ctx context.Context, p *Process, a Args) (any, error) {
	ws := a.String("workspace_id")
	if err := p.requireWorkspace(ws); err != nil {
		return nil, err
	}
	cred, err := p.sessionCredential(true, "only a bound session may mark what was addressed to it; call collab_session_start first")
	if err != nil {
		return nil, err
	}
	report, handoff := a.String("report_id"), a.String("handoff_id")
	if (report == "") == (handoff == "") {
		return nil, collaberr.New(collaberr.InvalidDeliveryMark, "Give exactly one of report_id and handoff_id")
	}
	sub := store.Subject{Kind: store.SubjectReport, ID: report}
	if handoff != "" {
		sub = store.Subject{Kind: store.SubjectHandoff, ID: handoff}
	}
	return p.store.MarkDelivery(ctx, cred, sub, a.String("state"), a.OptString("note"))
}
