package mcp

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

func handleWorkspaceOpen(ctx context.Context, p *Process, a Args) (any, error) {
	if p.seat.Bound() {
		return nil, collaberr.New(collaberr.SessionAlreadyBound,
			"This process is bound to a session and cannot open or register another workspace; use a new process").
			With("session_id", p.seat.SessionID())
	}
	opened, err := p.store.OpenWorkspace(ctx, store.OpenWorkspaceInput{
		RootPath: a.String("root_path"), Name: a.OptString("name"), Actor: a.String("actor"),
		RepositoryKey: a.String("repository_key"),
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"workspace": opened.Workspace}, nil
}

func handleWorkspaceStatus(ctx context.Context, p *Process, a Args) (any, error) {
	return p.store.Status(ctx, a.String("workspace_id"))
}
