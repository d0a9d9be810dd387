package mcp

import (
	"context"

	"github.com/agenttool/collab/core/store"
)

// handleIndependenceClaim opens a claim for the bound session.
func handleIndependenceClaim(ctx context.Context, p *Process, a Args) (any, error) {
	cred, err := p.sessionOnly(a, "an independence claim belongs to a bound session: call collab_session_start first")
	if err != nil {
		return nil, err
	}
	return p.store.ClaimIndependence(ctx, cred, store.ClaimIndependenceInput{
		TaskID: a.OptString("task_id"), ReportID: a.OptString("report_id"), Topic: a.OptString("topic"),
		TTLSeconds: a.OptInt("ttl_seconds"), Note: a.OptString("note"),
	})
}

// handleIndependenceRelease ends the bound session's own claim early.
func handleIndependenceRelease(ctx context.Context, p *Process, a Args) (any, error) {
	cred, err := p.sessionOnly(a, "only the claimant's bound session releases a claim: call collab_session_start first")
	if err != nil {
		return nil, err
	}
	return p.store.ReleaseIndependence(ctx, cred, a.String("claim_id"), a.String("reason"))
}

// handleIndependenceList reads a workspace's claims and blind reviews, in
// either mode.
func handleIndependenceList(ctx context.Context, p *Process, a Args) (any, error) {
	v, err := p.store.Independence(ctx, a.String("workspace_id"))
	if err != nil {
		return nil, err
	}
	if status := a.String("status"); status != "" {
		kept := []store.IndependenceClaim{}
		for _, c := range v.Claims {
			if c.Status == status {
				kept = append(kept, c)
			}
		}
		v.Claims = kept
	}
	return map[string]any{"workspace_id": a.String("workspace_id"), "claims": v.Claims, "independent_reviews": v.Reviews}, nil
}
