package sqltx

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/store"
)

// ReportColumns is the column list ScanReport reads, in Report order. The
// web view's report listing, not yet behind the seam, selects it too.
const ReportColumns = `id, workspace_id, task_id, from_session_id, from_actor, to_session_id, kind, body, evidence_refs_json,
confidence, confidence_basis, limits, relation, target_report_id, authority_scope, authority_basis, created_at, event_sequence`

// ScanReport reads one row selected with ReportColumns; EvidenceRefs is
// never nil.
func ScanReport(row interface{ Scan(dest ...any) error }) (store.Report, error) {
	var r store.Report
	var refs string
	err := row.Scan(&r.ID, &r.WorkspaceID, &r.TaskID, &r.FromSessionID, &r.FromActor, &r.ToSessionID, &r.Kind, &r.Body,
		&refs, &r.Confidence, &r.ConfidenceBasis, &r.Limits, &r.Relation, &r.TargetReportID, &r.AuthorityScope,
		&r.AuthorityBasis, &r.CreatedAt, &r.EventSequence)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal([]byte(refs), &r.EvidenceRefs); err != nil {
		return r, fmt.Errorf("report %s evidence: %w", r.ID, err)
	}
	if r.EvidenceRefs == nil {
		r.EvidenceRefs = []string{}
	}
	return r, nil
}

// InsertReport stores r; its evidence references are stored as canonical
// JSON, in the order given.
func (t *Tx) InsertReport(ctx context.Context, r store.Report) error {
	refs := r.EvidenceRefs
	if refs == nil {
		refs = []string{}
	}
	refsJSON, err := canon.Marshal(refs)
	if err != nil {
		return fmt.Errorf("encode evidence refs: %w", err)
	}
	err = t.execLater(ctx, "INSERT INTO reports ("+ReportColumns+`)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.WorkspaceID, r.TaskID, r.FromSessionID, r.FromActor, r.ToSessionID, r.Kind, r.Body, string(refsJSON),
		r.Confidence, r.ConfidenceBasis, r.Limits, r.Relation, r.TargetReportID, r.AuthorityScope, r.AuthorityBasis,
		r.CreatedAt, r.EventSequence)
	if err != nil {
		return fmt.Errorf("insert report: %w", err)
	}
	return nil
}

// Report reads one report by id.
func (t *Tx) Report(ctx context.Context, id string) (store.Report, bool, error) {
	r, err := ScanReport(t.QueryRowContext(ctx, "SELECT "+ReportColumns+" FROM reports WHERE id = ?", id))
	if err == sql.ErrNoRows {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("read report: %w", err)
	}
	return r, true, nil
}

// ReportsAfter lists the workspace's reports that f keeps, by event
// sequence.
func (t *Tx) ReportsAfter(ctx context.Context, workspaceID string, f store.ReportFilter) ([]store.Report, error) {
	query := "SELECT " + ReportColumns + " FROM reports WHERE workspace_id = ? AND event_sequence > ?"
	args := []any{workspaceID, f.After}
	if f.Through > 0 {
		query += " AND event_sequence <= ?"
		args = append(args, f.Through)
	}
	if f.TaskID != "" {
		query += " AND task_id = ?"
		args = append(args, f.TaskID)
	}
	if f.ToSessionID != "" {
		query += " AND to_session_id = ?"
		args = append(args, f.ToSessionID)
	}
	if f.RoutedTo != "" {
		query += " AND (to_session_id IS NULL OR to_session_id = ?)"
		args = append(args, f.RoutedTo)
	}
	if f.Kind != "" {
		query += " AND kind = ?"
		args = append(args, f.Kind)
	}
	query += " ORDER BY event_sequence"
	if f.NewestFirst {
		query += " DESC"
	}
	if f.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := t.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list reports: %w", err)
	}
	defer rows.Close()
	out := []store.Report{}
	for rows.Next() {
		r, err := ScanReport(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// ObsoletingLinks lists the workspace's withdrawals, corrections and
// supersessions, newest first.
func (t *Tx) ObsoletingLinks(ctx context.Context, workspaceID string) ([]store.ReportLink, error) {
	rows, err := t.QueryContext(ctx, `SELECT id, target_report_id FROM reports
WHERE workspace_id = ? AND relation IN ('withdraws', 'corrects', 'supersedes') AND target_report_id IS NOT NULL
ORDER BY event_sequence DESC, id DESC`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("read report relations: %w", err)
	}
	defer rows.Close()
	out := []store.ReportLink{}
	for rows.Next() {
		var l store.ReportLink
		if err := rows.Scan(&l.ID, &l.TargetReportID); err != nil {
			return nil, fmt.Errorf("read report relation: %w", err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// ReportsTargeting lists the ids of the reports that target reportID with
// one of relations, in journal order.
func (t *Tx) ReportsTargeting(ctx context.Context, workspaceID, reportID string, relations ...string) ([]string, error) {
	ids := []string{}
	if len(relations) == 0 {
		return ids, nil
	}
	args := []any{workspaceID, reportID}
	for _, r := range relations {
		args = append(args, r)
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(relations)), ", ")
	rows, err := t.QueryContext(ctx, `SELECT id FROM reports WHERE workspace_id = ? AND target_report_id = ?
AND relation IN (`+marks+`) ORDER BY event_sequence, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read related reports: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read related report: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
