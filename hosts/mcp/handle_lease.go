package mcp

import (
	"context"

	"github.com/agenttool/collab/core/store"
)

// caller resolves who is acting: the bound session's credential, or (when
// unbound) the legacy actor label the call must carry.
func (p *Process) caller(a Args) (store.Actor, error) {
	if p.seat.Bound() {
		return p.seat.SessionCaller(a.String("workspace_id"), "call collab_session_start first")
	}
	actor, err := legacyActor(a)
	return store.LabelActor(actor), err
}

func leaseInput(a Args) store.LeaseInput {
	return store.LeaseInput{WorkspaceID: a.String("workspace_id"), TaskID: a.String("task_id"),
		LeaseID: a.String("lease_id"), IdempotencyKey: a.String("idempotency_key"), ExpectedVersion: a.Int("expected_version")}
}

func handleTaskClaim(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	in := store.ClaimInput{WorkspaceID: a.String("workspace_id"), TaskID: a.String("task_id"),
		IdempotencyKey: a.String("idempotency_key"), ExpectedVersion: a.Int("expected_version"), TTLSeconds: a.OptInt("ttl_seconds")}
	return answered(p.store.ClaimTask(ctx, who, in))
}

func handleTaskRenew(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	return answered(p.store.RenewLease(ctx, who, leaseInput(a), a.OptInt("ttl_seconds")))
}

func handleTaskProgress(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	return answered(p.store.RecordProgress(ctx, who, leaseInput(a), a.String("message")))
}

func handleTaskRelease(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	return answered(p.store.ReleaseLease(ctx, who, leaseInput(a), a.OptString("summary")))
}

func handleTaskBlock(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	return answered(p.store.BlockTask(ctx, who, leaseInput(a), a.String("blocker")))
}

func handleTaskUnblock(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	return answered(p.store.UnblockTask(ctx, who, store.UnblockInput{WorkspaceID: a.String("workspace_id"),
		TaskID: a.String("task_id"), IdempotencyKey: a.String("idempotency_key"), ExpectedVersion: a.Int("expected_version"),
		Note: a.OptString("note")}))
}

func handleArtifactAttach(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	return answered(p.store.AttachArtifact(ctx, who, leaseInput(a), store.ArtifactInput{Kind: a.String("kind"),
		URI: a.String("uri"), SHA256: a.OptString("sha256"), MediaType: a.OptString("media_type"), Label: a.OptString("label")}))
}

func handleTaskComplete(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	in := store.CompleteInput{Lease: leaseInput(a), Summary: a.String("summary"), Confidence: a.OptString("confidence"),
		ConfidenceBasis: a.OptString("confidence_basis"), Limits: a.OptString("limits"), EvidenceRefs: a.Strings("evidence_refs")}
	return answered(p.store.CompleteTask(ctx, who, in))
}

// sessionOnly returns the credential for a tool with no legacy mode;
// advice is what an unbound caller is told it can do (sessionCredential).
func (p *Process) sessionOnly(a Args, advice string) (store.Credential, error) {
	if err := p.requireWorkspace(a.String("workspace_id")); err != nil {
		return store.Credential{}, err
	}
	return p.sessionCredential(false, advice)
}

func handleTaskReview(ctx context.Context, p *Process, a Args) (any, error) {
	cred, err := p.sessionOnly(a, "a review is given by a bound session other than the one that reported the completion: call collab_session_start first")
	if err != nil {
		return nil, err
	}
	return answered(p.store.ReviewTask(ctx, cred, store.ReviewInput{WorkspaceID: a.String("workspace_id"), TaskID: a.String("task_id"),
		IdempotencyKey: a.String("idempotency_key"), ExpectedVersion: a.Int("expected_version"), Outcome: a.String("outcome"),
		Summary: a.String("summary"), EvidenceRefs: a.Strings("evidence_refs")}))
}

func handleTaskRecover(ctx context.Context, p *Process, a Args) (any, error) {
	cred, err := p.sessionOnly(a, "recovering an expired session lease needs a bound session: call collab_session_start first "+
		"(without a session, collab_task_claim with actor takes a task whose legacy lease has expired)")
	if err != nil {
		return nil, err
	}
	return answered(p.store.RecoverTask(ctx, cred, store.RecoverInput{WorkspaceID: a.String("workspace_id"), TaskID: a.String("task_id"),
		IdempotencyKey: a.String("idempotency_key"), ExpectedVersion: a.Int("expected_version"),
		RecoveryNote: a.String("recovery_note"), Action: a.OptString("action"), Blocker: a.OptString("blocker"),
		TTLSeconds: a.OptInt("ttl_seconds")}))
}

func handleHandoffOffer(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	return answered(p.store.OfferHandoff(ctx, who, store.OfferInput{Lease: leaseInput(a), ToActor: a.OptString("to_actor"),
		ToSessionID: a.OptString("to_session_id"), Summary: a.String("summary"), TTLSeconds: a.OptInt("ttl_seconds")}))
}

func handleHandoffRespond(ctx context.Context, p *Process, a Args) (any, error) {
	who, err := p.caller(a)
	if err != nil {
		return nil, err
	}
	in := store.RespondInput{WorkspaceID: a.String("workspace_id"), HandoffID: a.String("handoff_id"),
		IdempotencyKey: a.String("idempotency_key"), ExpectedVersion: a.Int("expected_version"), Response: a.String("response"),
		TTLSeconds: a.OptInt("ttl_seconds")}
	return answered(p.store.RespondToHandoff(ctx, who, in))
}
