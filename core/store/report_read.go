package store

import (
	"context"
)

// queryReports lists the workspace's reports that f keeps (see
// Reports.Reports); never nil.
func queryReports(ctx context.Context, tx Reports, workspaceID string, f ReportFilter) ([]Report, error) {
	return tx.Reports(ctx, workspaceID, f)
}

// findReport reads one report by id, whatever its workspace.
func findReport(ctx context.Context, tx Reports, id string) (Report, bool, error) {
	return tx.Report(ctx, id)
}

// recentDecisions lists the workspace's newest legacy decisions, at most
// limit of them; never nil.
func recentDecisions(ctx context.Context, tx Decisions, workspaceID string, limit int) ([]Decision, error) {
	return tx.Decisions(ctx, workspaceID, limit)
}
