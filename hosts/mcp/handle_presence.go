package mcp

import (
	"context"

	"github.com/agenttool/collab/core/store"
)

func handleSessionJoin(ctx context.Context, p *Process, a Args) (any, error) {
	pres, err := p.store.JoinPresence(ctx, store.JoinInput{
		WorkspaceID: a.String("workspace_id"), ClientInstanceID: a.String("client_instance_id"),
		ActorLabel: a.String("actor_label"), RuntimeKind: a.String("runtime_kind"),
		ProviderLabel: a.OptString("provider_label"), ModelLabel: a.OptString("model_label"),
		Capabilities: a.Strings("declared_capabilities"), TTLSeconds: a.OptInt("ttl_seconds"),
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"session": pres}, nil
}

func handleSessionList(ctx context.Context, p *Process, a Args) (any, error) {
	list, err := p.store.ListPresence(ctx, a.String("workspace_id"), a.OptString("presence"), a.OptInt("limit"))
	if err != nil {
		return nil, err
	}
	return map[string]any{"sessions": list}, nil
}

func presenceUpdate(a Args) store.PresenceUpdate {
	return store.PresenceUpdate{SessionID: a.String("session_id"), IdempotencyKey: a.String("idempotency_key"),
		ExpectedVersion: a.Int("expected_version"), TTLSeconds: a.OptInt("ttl_seconds")}
}

func handleSessionHeartbeat(ctx context.Context, p *Process, a Args) (any, error) {
	return answered(p.store.HeartbeatPresence(ctx, presenceUpdate(a)))
}

func handleSessionLeave(ctx context.Context, p *Process, a Args) (any, error) {
	return answered(p.store.LeavePresence(ctx, presenceUpdate(a)))
}
