package store

import (
	"context"
	"encoding/json"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// Review labels shared with @agenttool/collab.
const (
	reviewAuthorityScope    = "local_task_coordination_review"
	reviewAuthorityBasis    = "distinct active collaboration session"
	reviewAuthorityBoundary = "acceptance_is_local_coordination_review_not_merge_deploy_truth_or_external_authority"
	checkpointStaleBoundary = "checkpoint_validation_is_a_local_observation_not_an_atomic_git_sqlite_lock"
)

// TaskReview is one review decision on a reported completion.
type TaskReview struct {
	ID                string `json:"id"`
	WorkspaceID       string `json:"workspace_id"`
	TaskID            string `json:"task_id"`
	ReviewGeneration  int64  `json:"review_generation"`
	Outcome           string `json:"outcome"`
	Summary           string `json:"summary"`
	ReviewerActor     string `json:"reviewer_actor"`
	ReviewerSessionID string `json:"reviewer_session_id"`
	CreatedAt         string `json:"created_at"`
	EventSequence     int64  `json:"event_sequence"`
}

// ReviewInput accepts a reported completion or requests changes.
type ReviewInput struct {
	WorkspaceID     string
	TaskID          string
	IdempotencyKey  string
	ExpectedVersion int64
	Outcome         string
	Summary         string
	EvidenceRefs    []string
}

type reviewFields struct {
	taskID, outcome, summary string
	version                  int64
	refs                     []string
}

func normalizeReview(in ReviewInput) (reviewFields, error) {
	var f reviewFields
	var err error
	if f.taskID, err = normalize.ID(in.TaskID, "task_id"); err != nil {
		return f, err
	}
	if f.version, err = normalize.ExpectedVersion(in.ExpectedVersion); err != nil {
		return f, err
	}
	if in.Outcome != "accept" && in.Outcome != "request_changes" {
		return f, collaberr.New(collaberr.InvalidReviewOutcome, "outcome must be accept or request_changes")
	}
	f.outcome = in.Outcome
	if f.summary, err = normalize.Text(in.Summary, field.Summary); err != nil {
		return f, err
	}
	f.refs, err = normalize.EvidenceRefs(orEmpty(in.EvidenceRefs))
	return f, err
}

// reviewObservation is the result worktree's state, observed before the
// write transaction for an acceptance.
type reviewObservation struct {
	storedResult string // the result checkpoint as stored when observed
	worktree     Worktree
	observed     *gitstate.Checkpoint
}

// ReviewTask lets a session other than the reporter accept a reported
// completion (after checking challenges, withdrawals and that the result
// worktree still matches its checkpoint) or request changes.
func (s *Store) ReviewTask(ctx context.Context, cred Credential, in ReviewInput) (*answer.Of[ReviewAnswer], error) {
	f, err := normalizeReview(in)
	if err != nil {
		return nil, err
	}
	request := map[string]any{"task_id": f.taskID, "expected_version": f.version, "outcome": f.outcome, "summary": f.summary,
		"evidence_refs": f.refs}
	if _, out, hit, err := sessionReceipt[ReviewAnswer](ctx, s, cred, "task.review.v2", in.IdempotencyKey, request); err != nil || hit {
		return out, err
	}
	var obs reviewObservation
	if f.outcome == "accept" {
		if obs, err = s.observeResult(ctx, in.WorkspaceID, f.taskID); err != nil {
			return nil, err
		}
	}
	return mutateAsSession(ctx, s, sessionMutation[ReviewAnswer]{cred: cred, operation: "task.review.v2", key: in.IdempotencyKey, request: request,
		apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*ReviewAnswer, error) {
			return s.applyReview(ctx, tx, sess, f, obs)
		}})
}

// observeResult re-observes the worktree a completion was captured in.
func (s *Store) observeResult(ctx context.Context, wsID, taskID string) (reviewObservation, error) {
	var obs reviewObservation
	var wt Worktree
	var observe, ok bool
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		observe, err = obs.readResult(ctx, tx, wsID, taskID, s.nowISO())
		if err != nil || !observe {
			return err
		}
		wt, ok, err = worktreeByID(ctx, tx, obs.worktree.ID)
		return err
	})
	if err != nil || !observe {
		return obs, err
	}
	if !ok {
		return obs, collaberr.Newf(collaberr.WorktreeNotFound, "Worktree '%s' was not found", obs.worktree.ID)
	}
	if wt.WorkspaceID != wsID {
		return obs, collaberr.New(collaberr.CheckpointWorkspaceMismatch, "The completion checkpoint belongs to another workspace")
	}
	observed, err := s.observeWorktree(ctx, wt)
	if err != nil {
		return obs, err
	}
	obs.worktree, obs.observed = wt, &observed
	return obs, nil
}

// readResult reads the task's stored result checkpoint into obs and says
// whether it names a worktree to observe: only a checkpoint the server
// captured from Git does. obs.worktree then carries only that worktree's
// id.
func (obs *reviewObservation) readResult(ctx context.Context, tx Tasks, wsID, taskID, now string) (bool, error) {
	t, err := loadTask(ctx, tx, wsID, taskID, now)
	if err != nil {
		return false, err
	}
	if t.ResultCheckpoint == nil {
		return false, nil
	}
	obs.storedResult = string(t.ResultCheckpoint)
	var cp struct {
		WorktreeID string  `json:"worktree_id"`
		Source     *string `json:"source"`
	}
	if err := json.Unmarshal(t.ResultCheckpoint, &cp); err != nil || cp.Source == nil || *cp.Source != gitstate.Source {
		return false, nil
	}
	obs.worktree.ID = cp.WorktreeID
	return true, nil
}

func (s *Store) applyReview(ctx context.Context, tx Tx, sess CoordinationSession, f reviewFields, obs reviewObservation) (*ReviewAnswer, error) {
	now := s.nowISO()
	t, err := loadTaskAt(ctx, tx, sess.WorkspaceID, f.taskID, f.version, now)
	if err != nil {
		return nil, err
	}
	if err := checkReviewable(t, sess); err != nil {
		return nil, err
	}
	if err := resolveEvidence(ctx, tx, sess.WorkspaceID, f.refs); err != nil {
		return nil, err
	}
	if f.outcome == "accept" {
		if err := s.checkAcceptable(ctx, tx, t, obs); err != nil {
			return nil, err
		}
	}
	return s.recordReview(ctx, tx, sess, t, f, now)
}

func checkReviewable(t Task, sess CoordinationSession) error {
	if t.CompletionPolicy != CompletionAccepted || t.ReviewStatus != ReviewPending {
		return collaberr.New(collaberr.TaskNotPendingReview, "This task has no completion waiting for review").With("review_status", t.ReviewStatus)
	}
	if t.ReportedBySessionID == nil || t.CompletionReportID == nil {
		return collaberr.New(collaberr.ReviewStateInvalid, "The task's completion lacks its reporting session or report")
	}
	if *t.ReportedBySessionID == sess.ID {
		return collaberr.New(collaberr.SelfReviewForbidden, "A different session must review this completion")
	}
	return nil
}

// checkAcceptable refuses acceptance of an obsolete or challenged
// completion, or of a Git result that is incomplete or has drifted.
func (s *Store) checkAcceptable(ctx context.Context, tx Tx, t Task, obs reviewObservation) error {
	reportID := *t.CompletionReportID
	if obsolete, err := completionObsolete(ctx, tx, t.WorkspaceID, reportID); err != nil || obsolete {
		if err != nil {
			return err
		}
		return collaberr.New(collaberr.CompletionReportObsolete,
			"The completion report was withdrawn, corrected or superseded; request changes so a fresh completion can be reported").
			With("completion_report_id", reportID)
	}
	if challenged, err := unresolvedChallenge(ctx, tx, t.WorkspaceID, reportID); err != nil || challenged {
		if err != nil {
			return err
		}
		return collaberr.New(collaberr.CompletionChallenged, "The completion has an unresolved challenge; resolve it first").
			With("completion_report_id", reportID)
	}
	if obs.observed == nil {
		return nil
	}
	return checkResultCheckpoint(ctx, tx, t, obs)
}

func checkResultCheckpoint(ctx context.Context, q Workspaces, t Task, obs reviewObservation) error {
	if string(t.ResultCheckpoint) != obs.storedResult {
		return collaberr.New(collaberr.WorktreeObservationStale, "The completion checkpoint changed while the review was being prepared; review again")
	}
	wt, ok, err := worktreeByID(ctx, q, obs.worktree.ID)
	if err != nil {
		return err
	}
	if !ok || wt.RootPath != obs.worktree.RootPath || wt.Fingerprint != obs.worktree.Fingerprint ||
		!equalPtr(wt.GitCommonDirHash, obs.worktree.GitCommonDirHash) || wt.WorkspaceID != obs.worktree.WorkspaceID {
		return collaberr.New(collaberr.WorktreeObservationStale, "The registered worktree changed after it was inspected; review again").
			With("worktree_id", obs.worktree.ID)
	}
	var result map[string]any
	if err := json.Unmarshal(t.ResultCheckpoint, &result); err != nil {
		return err
	}
	observed := obs.observed.Map()
	if !completeCheckpoint(result) || !completeCheckpoint(observed) {
		return collaberr.New(collaberr.GitCheckpointIncomplete,
			"Acceptance needs a complete server-observed Git checkpoint, and the result or current state could not be fully hashed").
			With("worktree_id", obs.worktree.ID)
	}
	for _, k := range []string{"worktree_id", "head_sha", "branch", "algorithm", "index_sha256", "state_sha256", "dirty"} {
		if result[k] != observed[k] {
			return collaberr.New(collaberr.GitCheckpointStale, "The completion's worktree changed after its result checkpoint was captured").
				With("result_checkpoint", t.ResultCheckpoint).With("observed_checkpoint", observed).
				With("boundary", checkpointStaleBoundary)
		}
	}
	return nil
}

// completeCheckpoint reports whether a checkpoint has every Git digest.
func completeCheckpoint(cp map[string]any) bool {
	str := func(k string) string { v, _ := cp[k].(string); return v }
	isHex64 := func(v string) bool {
		if len(v) != 64 {
			return false
		}
		for _, c := range v {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
		return true
	}
	_, dirty := cp["dirty"].(bool)
	return str("source") == gitstate.Source && str("algorithm") == gitstate.Algorithm && str("head_sha") != "" && dirty &&
		isHex64(str("index_sha256")) && isHex64(str("state_sha256"))
}

func (s *Store) recordReview(ctx context.Context, tx Tx, sess CoordinationSession, t Task, f reviewFields, now string) (*ReviewAnswer, error) {
	completion := *t.CompletionReportID
	refs := []string{"report:" + completion}
	for _, r := range f.refs {
		if r != refs[0] {
			refs = append(refs, r)
		}
	}
	kind, relation, outcome, eventType := "observation", "supports", "accepted", journal.KindTaskAccepted
	if f.outcome == "request_changes" {
		kind, relation, outcome, eventType = "inference", "challenges", "changes_requested", journal.KindTaskChangesRequested
	}
	scope, basis := reviewAuthorityScope, reviewAuthorityBasis
	report, err := s.appendReportInternal(ctx, tx, sess, reportDraft{TaskID: &t.ID, ToSessionID: t.ReportedBySessionID, Kind: kind,
		Body: f.summary, EvidenceRefs: refs, Confidence: "unknown", Relation: relation, TargetReportID: &completion,
		AuthorityScope: &scope, AuthorityBasis: &basis})
	if err != nil {
		return nil, err
	}
	if outcome == "accepted" {
		err = tx.UpdateTask(ctx, t, acceptedBy(t, sess.Actor, sess.ID, now))
	} else {
		err = tx.UpdateTask(ctx, t, changesRequested(t, now))
	}
	if err != nil {
		return nil, err
	}
	review := TaskReview{ID: "review_" + newUUID(), WorkspaceID: t.WorkspaceID, TaskID: t.ID, ReviewGeneration: t.ReviewGeneration,
		Outcome: outcome, Summary: f.summary, ReviewerActor: sess.Actor, ReviewerSessionID: sess.ID, CreatedAt: now}
	ev, err := s.appendEvent(ctx, tx, t.WorkspaceID, newEvent{Type: eventType, EntityID: t.ID, Actor: sess.Actor, SessionID: &sess.ID,
		Payload: map[string]any{"review_id": review.ID, "review_report_id": report.ID, "completion_report_id": completion,
			"review_generation": t.ReviewGeneration, "outcome": outcome, "summary": f.summary, "version": t.Version + 1,
			"authority_boundary": reviewAuthorityBoundary}})
	if err != nil {
		return nil, err
	}
	review.EventSequence = ev.Sequence
	if err := tx.InsertReview(ctx, Review(review)); err != nil {
		return nil, err
	}
	if err := s.releaseByFinding(ctx, tx, sess, report, ev); err != nil {
		return nil, err
	}
	if err := s.markIndependentReview(ctx, tx, sess, review, report.ID); err != nil {
		return nil, err
	}
	task, err := loadTask(ctx, tx, t.WorkspaceID, t.ID, now)
	return &ReviewAnswer{Task: task, Review: review, Report: report}, err
}
