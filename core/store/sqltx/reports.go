package sqltx

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/store"
)

// ReportColumns is the column list ScanReport reads, in Report order (the
// store's floor benchmark writes and reads rows with it too).
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

// errTargetWindow refuses a filter that names a target and a window: the
// target index knows no sequence order.
var errTargetWindow = errors.New("a report filter naming a target takes no sequence window, limit or direction")

// Reports lists the workspace's reports that f keeps: a window through
// reports_workspace_event_idx, or the reports pointing at f.Target
// through reports_target_idx (no ORDER BY, which would draw SQLite's
// planner to the workspace index and a scan of the workspace's reports).
// A window that keeps only Targeted reports leaves PostgreSQL the choice
// of reports_target_idx, as the statement it replaces did.
func (t *Tx) Reports(ctx context.Context, workspaceID string, f store.ReportFilter) ([]store.Report, error) {
	query, args, err := reportsQuery(workspaceID, f)
	if err != nil {
		return nil, err
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

// reportsQuery builds the statement of a report listing. A window's
// statement is the text the engines always ran for it, so their statement
// caches and the PostgreSQL read-ahead see the same statements as before.
func reportsQuery(workspaceID string, f store.ReportFilter) (string, []any, error) {
	query := "SELECT " + ReportColumns + " FROM reports WHERE workspace_id = ?"
	args := []any{workspaceID}
	if f.Target != "" {
		if f.After != 0 || f.Through != 0 || f.Limit != 0 || f.NewestFirst {
			return "", nil, errTargetWindow
		}
		query, args = reportConditions(query+" AND target_report_id = ?", append(args, f.Target), f)
		return query, args, nil
	}
	query, args = reportConditions(query+" AND event_sequence > ?", append(args, f.After), f)
	query += " ORDER BY event_sequence"
	if f.NewestFirst {
		query += " DESC"
	}
	if f.Limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	return query, args, nil
}

// reportConditions appends the conditions of f's optional fields to query
// and their values to args.
func reportConditions(query string, args []any, f store.ReportFilter) (string, []any) {
	if f.Through > 0 {
		query += " AND event_sequence <= ?"
		args = append(args, f.Through)
	}
	for _, c := range []struct{ cond, value string }{{" AND task_id = ?", f.TaskID},
		{" AND to_session_id = ?", f.ToSessionID}, {" AND (to_session_id IS NULL OR to_session_id = ?)", f.RoutedTo},
		{" AND kind = ?", f.Kind}} {
		if c.value != "" {
			query += c.cond
			args = append(args, c.value)
		}
	}
	if f.Targeted {
		query += " AND target_report_id IS NOT NULL"
	}
	if len(f.Relations) > 0 {
		query += " AND relation IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(f.Relations)), ", ") + ")"
		for _, r := range f.Relations {
			args = append(args, r)
		}
	}
	return query, args
}
