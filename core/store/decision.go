package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// RecordDecisionInput is one decision as collab_decision_record receives it.
// WorkspaceID is used in legacy mode only; the authority fields in session
// mode only.
type RecordDecisionInput struct {
	WorkspaceID    string
	actor          string // legacy label, set from the Actor
	IdempotencyKey string
	Topic          string
	Decision       string
	Rationale      *string
	AuthorityScope *string
	AuthorityBasis *string
}

// decisionFields are a legacy decision's normalised fields.
type decisionFields struct {
	actor, key, topic, decision string
	rationale                   *string
}

func normalizeDecision(in RecordDecisionInput) (decisionFields, error) {
	var f decisionFields
	var err error
	if f.actor, err = normalize.Actor(in.actor); err != nil {
		return f, err
	}
	if f.key, err = normalize.IdempotencyKey(in.IdempotencyKey); err != nil {
		return f, err
	}
	if f.topic, err = normalize.Text(in.Topic, field.Topic); err != nil {
		return f, err
	}
	if f.decision, err = normalize.Text(in.Decision, field.Decision); err != nil {
		return f, err
	}
	f.rationale, err = normalize.Optional(in.Rationale, field.Rationale)
	return f, err
}

// RecordDecision stores a legacy (actor-labelled) decision: a decisions
// row and its decision.recorded event, idempotent per actor and key. The
// authority fields are ignored. The result is {decision}.
func (s *Store) RecordDecision(ctx context.Context, who Actor, in RecordDecisionInput) (*answer.Of[DecisionAnswer], error) {
	if cred, ok := who.Session(); ok {
		return s.recordDecisionAsSession(ctx, cred, in)
	}
	in.actor = who.Label()
	return s.recordDecisionAsLabel(ctx, in)
}

// recordDecisionAsLabel stores a legacy decision.
func (s *Store) recordDecisionAsLabel(ctx context.Context, in RecordDecisionInput) (*answer.Of[DecisionAnswer], error) {
	f, err := normalizeDecision(in)
	if err != nil {
		return nil, err
	}
	request := map[string]any{
		"workspace_id": in.WorkspaceID, "actor": f.actor, "idempotency_key": f.key, "topic": f.topic,
		"decision": f.decision, "rationale": nullable(f.rationale),
	}
	return mutateAsActor(ctx, s, legacyMutation[DecisionAnswer]{
		workspaceID: in.WorkspaceID, actor: f.actor, operation: "decision.record", key: f.key, request: request,
		apply: func(ctx context.Context, tx Tx) (*DecisionAnswer, error) {
			return s.insertDecision(ctx, tx, in.WorkspaceID, f)
		},
	})
}

// decisionWriter is what recording a legacy decision needs: the decision
// records and the journal, for its decision.recorded event.
type decisionWriter interface {
	Decisions
	Journal
}

func (s *Store) insertDecision(ctx context.Context, tx decisionWriter, wsID string, f decisionFields) (*DecisionAnswer, error) {
	d := Decision{
		ID: "decision_" + newUUID(), WorkspaceID: wsID, Topic: f.topic, Decision: f.decision, Rationale: f.rationale,
		RecordedBy: f.actor, RecordedAt: s.nowISO(),
	}
	if err := tx.InsertDecision(ctx, d); err != nil {
		return nil, err
	}
	payload := map[string]any{"decision": map[string]any{
		"id": d.ID, "workspace_id": d.WorkspaceID, "topic": d.Topic, "decision": d.Decision,
		"rationale": nullable(d.Rationale), "recorded_by": d.RecordedBy, "recorded_at": d.RecordedAt,
	}}
	if _, err := s.appendEvent(ctx, tx, wsID, newEvent{
		Type: journal.KindDecisionRecorded, EntityID: d.ID, Actor: f.actor, Payload: payload,
	}); err != nil {
		return nil, err
	}
	return &DecisionAnswer{Decision: &d}, nil
}

// decisionBody composes a session decision report's body from the raw,
// untrimmed inputs: "<topic>: <decision>", then "\nRationale: <rationale>"
// when a non-empty rationale was given. AppendReport trims the whole.
func decisionBody(in RecordDecisionInput) string {
	body := in.Topic + ": " + in.Decision
	if in.Rationale != nil && *in.Rationale != "" {
		body += "\nRationale: " + *in.Rationale
	}
	return body
}

// RecordDecisionForSession records a decision as the credential's session:
// it becomes a task-less decision report (confidence unknown, relation
// informs) and so needs both authority fields. The result is {report}.
func (s *Store) recordDecisionAsSession(ctx context.Context, cred Credential, in RecordDecisionInput) (*answer.Of[DecisionAnswer], error) {
	confidence := "unknown"
	a, err := s.AppendReport(ctx, cred, AppendReportInput{
		IdempotencyKey: in.IdempotencyKey, Kind: "decision", Body: decisionBody(in), Confidence: &confidence,
		AuthorityScope: in.AuthorityScope, AuthorityBasis: in.AuthorityBasis,
	})
	return answer.Map(a, decisionReport), err
}
