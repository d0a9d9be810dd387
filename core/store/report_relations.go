package store

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
)

// validateReportInput checks a caller's report against the workspace inside
// the write transaction, in the order of
// docs/contract.md#report-append-order: task, recipient, relation and target,
// decision authority, then evidence.
func validateReportInput(ctx context.Context, q reportValidator, sess CoordinationSession, d reportDraft) error {
	if d.TaskID != nil {
		found, err := q.TaskRecorded(ctx, sess.WorkspaceID, *d.TaskID)
		if err != nil {
			return err
		}
		if !found {
			return taskNotFound(*d.TaskID)
		}
	}
	if d.ToSessionID != nil {
		if err := checkRecipient(ctx, q, sess.WorkspaceID, *d.ToSessionID); err != nil {
			return err
		}
	}
	if err := checkTarget(ctx, q, sess, d); err != nil {
		return err
	}
	if d.Kind == "decision" && (d.AuthorityScope == nil || d.AuthorityBasis == nil) {
		return collaberr.New(collaberr.DecisionAuthorityRequired,
			"A decision report must state both authority_scope and authority_basis")
	}
	return resolveEvidence(ctx, q, sess.WorkspaceID, d.EvidenceRefs)
}

// reportValidator is what validating a report reads: the task and
// evidence it names, its recipient and its target.
type reportValidator interface {
	Evidence
	Sessions
	Reports
}

// checkRecipient accepts any session of the workspace, ended or not, the
// author included: addressing is routing, not access control.
func checkRecipient(ctx context.Context, q Sessions, workspaceID, sessionID string) error {
	to, ok, err := q.Session(ctx, sessionID)
	if err != nil {
		return err
	}
	if !ok {
		return sessionNotFound(sessionID)
	}
	if to.WorkspaceID != workspaceID {
		return collaberr.New(collaberr.ReportTargetMismatch, "The addressed session belongs to another workspace")
	}
	return nil
}

// checkTarget enforces the relation rules: informs stands alone, every
// other relation names an earlier report of the same workspace and task;
// only its author may correct, withdraw or supersede it, and only a
// challenge can be resolved.
func checkTarget(ctx context.Context, q Reports, sess CoordinationSession, d reportDraft) error {
	if d.Relation == "informs" {
		if d.TargetReportID != nil {
			return collaberr.New(collaberr.InvalidReportRelation, "An informs report stands alone; drop target_report_id")
		}
		return nil
	}
	if d.TargetReportID == nil {
		return collaberr.New(collaberr.ReportTargetRequired, "This relation needs target_report_id naming an earlier report")
	}
	target, ok, err := q.Report(ctx, *d.TargetReportID)
	if err != nil {
		return err
	}
	if !ok {
		return collaberr.Newf(collaberr.ReportNotFound, "Report '%s' was not found", *d.TargetReportID)
	}
	if target.WorkspaceID != sess.WorkspaceID {
		return collaberr.New(collaberr.ReportTargetMismatch, "The target report belongs to another workspace")
	}
	if !sameOptional(target.TaskID, d.TaskID) {
		return collaberr.New(collaberr.ReportTaskMismatch, "A related report must have the same task_id as its target").
			With("target_task_id", nullable(target.TaskID)).With("report_task_id", nullable(d.TaskID))
	}
	switch d.Relation {
	case "corrects", "withdraws", "supersedes":
		if target.FromSessionID == nil || *target.FromSessionID != sess.ID {
			return collaberr.New(collaberr.ReportAuthorMismatch,
				"Only the session that wrote a report may correct, withdraw or supersede it; challenge it instead")
		}
	case "resolves":
		if target.Relation != "challenges" {
			return collaberr.New(collaberr.InvalidReportRelation, "A resolves report must target a challenges report")
		}
	}
	return nil
}

func sameOptional(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// obsoletedReports returns the ids of the workspace's reports that an
// active withdraws, corrects or supersedes report points at. Walking from
// the newest relation back, a relation that is itself obsoleted does not
// count, so withdrawing a withdrawal re-activates its target.
func obsoletedReports(ctx context.Context, q Reports, workspaceID string) (map[string]bool, error) {
	links, err := q.ObsoletingLinks(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	obsolete := map[string]bool{}
	for _, l := range links {
		if !obsolete[l.ID] {
			obsolete[l.TargetReportID] = true
		}
	}
	return obsolete, nil
}

// hasActiveRelation reports whether some report outside obsolete points at
// reportID with one of relations.
func hasActiveRelation(ctx context.Context, q Reports, workspaceID, reportID string, obsolete map[string]bool, relations ...string) (bool, error) {
	ids, err := q.ReportsTargeting(ctx, workspaceID, reportID, relations...)
	if err != nil {
		return false, err
	}
	for _, id := range ids {
		if !obsolete[id] {
			return true, nil
		}
	}
	return false, nil
}

// completionObsolete reports whether an active withdrawal, correction or
// supersession points at the completion report.
func completionObsolete(ctx context.Context, q Reports, workspaceID, reportID string) (bool, error) {
	obsolete, err := obsoletedReports(ctx, q, workspaceID)
	if err != nil {
		return false, err
	}
	return hasActiveRelation(ctx, q, workspaceID, reportID, obsolete, "withdraws", "corrects", "supersedes")
}

// unresolvedChallenge reports whether some challenge of the report is
// neither withdrawn nor resolved by an active report. A resolution that
// was itself withdrawn no longer clears its challenge.
func unresolvedChallenge(ctx context.Context, q Reports, workspaceID, reportID string) (bool, error) {
	obsolete, err := obsoletedReports(ctx, q, workspaceID)
	if err != nil {
		return false, err
	}
	challenges, err := q.ReportsTargeting(ctx, workspaceID, reportID, "challenges")
	if err != nil {
		return false, err
	}
	for _, c := range challenges {
		withdrawn, err := hasActiveRelation(ctx, q, workspaceID, c, obsolete, "withdraws")
		if err != nil {
			return false, err
		}
		if withdrawn {
			continue
		}
		resolved, err := hasActiveRelation(ctx, q, workspaceID, c, obsolete, "resolves")
		if err != nil {
			return false, err
		}
		if !resolved {
			return true, nil
		}
	}
	return false, nil
}
