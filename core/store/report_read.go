package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
)

const reportColumns = `id, workspace_id, task_id, from_session_id, from_actor, to_session_id, kind, body, evidence_refs_json,
confidence, confidence_basis, limits, relation, target_report_id, authority_scope, authority_basis, created_at, event_sequence`

func scanReport(row rowScanner) (Report, error) {
	var r Report
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

// reportFilter narrows a report listing. Zero values mean "any".
type reportFilter struct {
	After       int64
	Through     int64 // inclusive upper bound on event_sequence; 0 = none
	Limit       int
	TaskID      string
	ToSessionID string
	// RoutedTo keeps reports addressed to nobody or to this session.
	RoutedTo string
}

func queryReports(ctx context.Context, q querier, workspaceID string, f reportFilter) ([]Report, error) {
	query := "SELECT " + reportColumns + " FROM reports WHERE workspace_id = ? AND event_sequence > ?"
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
	query += " ORDER BY event_sequence"
	if f.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list reports: %w", err)
	}
	defer rows.Close()
	out := []Report{}
	for rows.Next() {
		r, err := scanReport(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func findReport(ctx context.Context, q querier, id string) (Report, bool, error) {
	r, err := scanReport(q.QueryRowContext(ctx, "SELECT "+reportColumns+" FROM reports WHERE id = ?", id))
	if err == sql.ErrNoRows {
		return r, false, nil
	}
	if err != nil {
		return r, false, fmt.Errorf("read report: %w", err)
	}
	return r, true, nil
}

func recentDecisions(ctx context.Context, q querier, workspaceID string, limit int) ([]Decision, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, workspace_id, topic, decision, rationale, recorded_by, recorded_at
FROM decisions WHERE workspace_id = ? ORDER BY recorded_at DESC, id DESC LIMIT ?`, workspaceID, limit)
	if err != nil {
		return nil, fmt.Errorf("list decisions: %w", err)
	}
	defer rows.Close()
	out := []Decision{}
	for rows.Next() {
		var d Decision
		if err := rows.Scan(&d.ID, &d.WorkspaceID, &d.Topic, &d.Decision, &d.Rationale, &d.RecordedBy, &d.RecordedAt); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
