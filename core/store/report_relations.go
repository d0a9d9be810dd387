package store

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/agenttool/collab/core/collaberr"
)

// validateReportInput checks a caller's report against the workspace inside
// the write transaction, in the order of
// docs/contract.md#report-append-order: task, recipient, relation and target,
// decision authority, then evidence.
func validateReportInput(ctx context.Context, q reportValidator, sess CoordinationSession, d reportDraft) error {
	if d.TaskID != nil {
		found, err := q.Recorded(ctx, sess.WorkspaceID, RecordTask, *d.TaskID)
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
	if obsoletes(d.Relation) && (target.FromSessionID == nil || *target.FromSessionID != sess.ID) {
		return collaberr.New(collaberr.ReportAuthorMismatch,
			"Only the session that wrote a report may correct, withdraw or supersede it; challenge it instead")
	}
	if d.Relation == "resolves" && target.Relation != "challenges" {
		return collaberr.New(collaberr.InvalidReportRelation, "A resolves report must target a challenges report")
	}
	return nil
}

func sameOptional(a, b *string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// obsoletingRelations are the relations that take their target out of
// force: a correction, a withdrawal and a supersession.
func obsoletingRelations() []string { return []string{"withdraws", "corrects", "supersedes"} }

// obsoletes reports whether a report of this relation takes its target out
// of force.
func obsoletes(relation string) bool { return slices.Contains(obsoletingRelations(), relation) }

// newestFirst orders reports by event sequence, then id, both descending
// (ids in byte order, as both engines compare text).
func newestFirst(reports []Report) {
	slices.SortFunc(reports, func(a, b Report) int {
		if c := cmp.Compare(b.EventSequence, a.EventSequence); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
}

// obsoletedReports maps each of the workspace's reports that an active
// withdraws, corrects or supersedes report points at to that report's
// relation. Walking from the newest relation back, a relation that is
// itself obsoleted does not count, so withdrawing a withdrawal
// re-activates its target.
func obsoletedReports(ctx context.Context, q Reports, workspaceID string) (map[string]string, error) {
	links, err := q.Reports(ctx, workspaceID, ReportFilter{Relations: obsoletingRelations(), Targeted: true})
	if err != nil {
		return nil, err
	}
	newestFirst(links)
	obsolete := map[string]string{}
	for _, l := range links {
		if l.TargetReportID != nil && obsolete[l.ID] == "" && obsolete[*l.TargetReportID] == "" {
			obsolete[*l.TargetReportID] = l.Relation
		}
	}
	return obsolete, nil
}

// activeRelations returns the reports outside obsolete that point at
// reportID with one of relations, in no particular order.
func activeRelations(ctx context.Context, q Reports, workspaceID, reportID string, obsolete map[string]string, relations ...string) ([]Report, error) {
	found, err := q.Reports(ctx, workspaceID, ReportFilter{Target: reportID, Relations: relations})
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(found, func(r Report) bool { return obsolete[r.ID] != "" }), nil
}

// completionObsolete reports whether an active withdrawal, correction or
// supersession points at the completion report.
func completionObsolete(ctx context.Context, q Reports, workspaceID, reportID string) (bool, error) {
	obsolete, err := obsoletedReports(ctx, q, workspaceID)
	if err != nil {
		return false, err
	}
	active, err := activeRelations(ctx, q, workspaceID, reportID, obsolete, obsoletingRelations()...)
	return len(active) > 0, err
}

// unresolvedChallenge reports whether some challenge of the report is
// neither withdrawn nor resolved by an active report. A resolution that
// was itself withdrawn no longer clears its challenge.
func unresolvedChallenge(ctx context.Context, q Reports, workspaceID, reportID string) (bool, error) {
	obsolete, err := obsoletedReports(ctx, q, workspaceID)
	if err != nil {
		return false, err
	}
	challenges, err := q.Reports(ctx, workspaceID, ReportFilter{Target: reportID, Relations: []string{"challenges"}})
	if err != nil {
		return false, err
	}
	for _, c := range challenges {
		answers, err := activeRelations(ctx, q, workspaceID, c.ID, obsolete, "withdraws", "resolves")
		if err != nil {
			return false, err
		}
		if len(answers) == 0 {
			return true, nil
		}
	}
	return false, nil
}
