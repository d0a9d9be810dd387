package mcp

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

func handleTaskCreate(ctx context.Context, p *Process, a Args) (any, error) {
	in := store.CreateTaskInput{
		WorkspaceID: a.String("workspace_id"), IdempotencyKey: a.String("idempotency_key"), TaskID: a.OptString("task_id"),
		Title: a.String("title"), Description: a.OptString("description"), Dependencies: a.Strings("dependencies"),
		PathScopes: a.Strings("path_scopes"), WorkMode: a.OptString("work_mode"),
		CompletionPolicy: a.OptString("completion_policy"), ExpectedBaseSHA: a.OptString("expected_base_sha"),
	}
	if !p.seat.Bound() {
		if in.WorkMode != nil || in.CompletionPolicy != nil || in.ExpectedBaseSHA != nil {
			return nil, collaberr.New(collaberr.SessionRequiredForV2TaskOptions,
				"work_mode, completion_policy and expected_base_sha need a bound session; call collab_session_start first")
		}
		actor, err := legacyActor(a)
		if err != nil {
			return nil, err
		}
		return answered(p.store.CreateTask(ctx, store.LabelActor(actor), in))
	}
	if err := p.requireWorkspace(in.WorkspaceID); err != nil {
		return nil, err
	}
	cred, err := p.boundCredential(false)
	if err != nil {
		return nil, err
	}
	return answered(p.store.CreateTask(ctx, store.SessionActor(cred), in))
}

func handleTaskList(ctx context.Context, p *Process, a Args) (any, error) {
	tasks, err := p.store.ListTasks(ctx, a.String("workspace_id"), a.String("status"))
	if err != nil {
		return nil, err
	}
	w, err := p.withholding(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]any{"tasks": w.Tasks(tasks)}, nil
}

func handleTaskGet(ctx context.Context, p *Process, a Args) (any, error) {
	t, err := p.store.GetTask(ctx, a.String("workspace_id"), a.String("task_id"))
	if err != nil {
		return nil, err
	}
	w, err := p.withholding(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]any{"task": w.TaskWithArtifacts(t)}, nil
}
