package mcp

import (
	"context"
	"github.com/agenttool/collab/core/field"

	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
)

// SessionStarted is collab_session_start's result (core/seat.Started).
type SessionStarted = seat.Started

func handleSessionStart(ctx context.Context, p *Process, a Args) (any, error) {
	started, err := p.seat.Start(ctx, store.StartSessionInput{
		RootPath: a.String("root_path"), Actor: a.String("actor"), Role: a.OptString("role"),
		ParentSessionID: a.OptString("parent_session_id"), RepositoryKey: a.String("repository_key"),
	})
	if err != nil {
		return nil, err
	}
	p.notifyBind(started.Session.ID)
	return started, nil
}

// SessionEnded is collab_session_end's result (core/seat.Ended).
type SessionEnded = seat.Ended

// handleSessionEnd ends the bound session. Observers hear of the unbinding
// whenever the session did end, even if its credential file could not be
// removed afterwards.
func handleSessionEnd(ctx context.Context, p *Process, a Args) (any, error) {
	id := p.seat.SessionID()
	ended, err := p.seat.End(ctx, a.OptString("reason"))
	if id != "" && !p.seat.Bound() {
		p.notifyUnbind(id)
	}
	if err != nil {
		return nil, err
	}
	return ended, nil
}

func handleCursorAck(ctx context.Context, p *Process, a Args) (any, error) {
	ws := a.String("workspace_id")
	if err := p.requireWorkspace(ws); err != nil {
		return nil, err
	}
	cred, err := p.sessionCredential(false, "only a bound session has a cursor to acknowledge: call collab_session_start first "+
		"(without a session, collab_next with actor and after_sequence reads events and keeps no cursor)")
	if err != nil {
		return nil, err
	}
	sess, err := p.store.AckCursor(ctx, cred, ws, *anchorArg(a, "anchor"), a.Int("expected_cursor_version"))
	if err != nil {
		return nil, err
	}
	return p.rememberCursor(sess)
}

func handleCursorReset(ctx context.Context, p *Process, a Args) (any, error) {
	ws := a.String("workspace_id")
	if err := p.requireWorkspace(ws); err != nil {
		return nil, err
	}
	cred, err := p.sessionCredential(true, "only a bound session has a cursor to reset: call collab_session_start first, "+
		"or let the host resume the session whose cursor needs the reset")
	if err != nil {
		return nil, err
	}
	sess, err := p.store.ResetCursor(ctx, cred, store.ResetCursorInput{
		WorkspaceID: ws, IdempotencyKey: a.String("idempotency_key"), Target: *anchorArg(a, "target"),
		ExpectedVersion: a.Int("expected_cursor_version"), Reason: a.String("reason"),
	})
	if err != nil {
		return nil, err
	}
	p.seat.Recovered()
	return p.rememberCursor(sess)
}

// rememberCursor records the session's cursor in the binding and its
// credential file, so a host restart resumes from what was acknowledged.
func (p *Process) rememberCursor(sess store.CoordinationSession) (any, error) {
	if err := p.seat.RememberCursor(sess); err != nil {
		return nil, err
	}
	return map[string]any{"session": sess}, nil
}

func handleNext(ctx context.Context, p *Process, a Args) (any, error) {
	ws := a.String("workspace_id")
	limit := field.EventLimit.Spec().Default
	if n := a.OptInt("event_limit"); n != nil {
		limit = *n
	}
	if p.seat.Bound() {
		if err := p.requireWorkspace(ws); err != nil {
			return nil, err
		}
		cred, err := p.boundCredential(false)
		if err != nil {
			return nil, err
		}
		return p.store.NextForSession(ctx, cred, anchorArg(a, "known_cursor"), int(limit))
	}
	actor, err := legacyActor(a)
	if err != nil {
		return nil, err
	}
	return p.store.NextForActor(ctx, ws, actor, a.Int("after_sequence"), int(limit))
}
