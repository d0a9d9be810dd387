package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
	"github.com/agenttool/collab/core/scope"
)

// CreateTaskInput describes a new task. WorkMode, CompletionPolicy and
// ExpectedBaseSHA apply to session-created tasks only.
type CreateTaskInput struct {
	WorkspaceID      string
	actor            string // legacy label, set from the Actor
	IdempotencyKey   string
	TaskID           *string
	Title            string
	Description      *string
	Dependencies     []string
	PathScopes       []string
	WorkMode         *string
	CompletionPolicy *string
	ExpectedBaseSHA  *string
}

// taskFields are a new task's normalised fields.
type taskFields struct {
	key, title       string
	id, description  *string
	deps, scopes     []string
	workMode, policy string
	expectedBase     *string
}

func normalizeTaskFields(in CreateTaskInput) (taskFields, error) {
	var f taskFields
	var err error
	if f.key, err = normalize.IdempotencyKey(in.IdempotencyKey); err != nil {
		return f, err
	}
	if in.TaskID != nil {
		id, err := normalize.ID(*in.TaskID, "task_id")
		if err != nil {
			return f, err
		}
		f.id = &id
	}
	if f.title, err = normalize.Text(in.Title, field.Title); err != nil {
		return f, err
	}
	if f.description, err = normalize.Optional(in.Description, field.Description); err != nil {
		return f, err
	}
	if f.deps, err = normalize.Dependencies(orEmpty(in.Dependencies)); err != nil {
		return f, err
	}
	f.scopes, err = scope.Normalize(orEmpty(in.PathScopes))
	return f, err
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// normalizeSessionOptions resolves the session-only task options and their
// defaults: edit mode, which needs scopes and defaults to reviewed completion.
func normalizeSessionOptions(f *taskFields, in CreateTaskInput) error {
	if in.ExpectedBaseSHA != nil {
		sha, err := normalize.GitObjectID(*in.ExpectedBaseSHA)
		if err != nil {
			return err
		}
		f.expectedBase = &sha
	}
	f.workMode = "edit"
	if in.WorkMode != nil {
		f.workMode = *in.WorkMode
	}
	switch f.workMode {
	case "coordination", "read_only", "edit":
	default:
		return collaberr.New(collaberr.InvalidWorkMode, "work_mode must be coordination, read_only or edit")
	}
	if f.workMode == "edit" && len(f.scopes) == 0 {
		return collaberr.New(collaberr.EditScopeRequired,
			"An edit task needs at least one repository-relative path scope; add path_scopes or choose another work_mode")
	}
	f.policy = "reported"
	if f.workMode == "edit" {
		f.policy = "accepted"
	}
	if in.CompletionPolicy != nil {
		f.policy = *in.CompletionPolicy
	}
	if f.policy != "reported" && f.policy != "accepted" {
		return collaberr.New(collaberr.InvalidCompletionPolicy, "completion_policy must be reported or accepted")
	}
	return nil
}

// CreateTask creates a task in legacy (actor-labelled) mode.
func (s *Store) CreateTask(ctx context.Context, who Actor, in CreateTaskInput) (*answer.Of[TaskAnswer], error) {
	if cred, ok := who.Session(); ok {
		return s.createTaskAsSession(ctx, cred, in)
	}
	in.actor = who.Label()
	return s.createTaskAsLabel(ctx, in)
}

// createTaskAsLabel creates a task in legacy mode.
func (s *Store) createTaskAsLabel(ctx context.Context, in CreateTaskInput) (*answer.Of[TaskAnswer], error) {
	actor, err := normalize.Actor(in.actor)
	if err != nil {
		return nil, err
	}
	f, err := normalizeTaskFields(in)
	if err != nil {
		return nil, err
	}
	request := map[string]any{
		"workspace_id": in.WorkspaceID, "actor": actor, "idempotency_key": f.key, "title": f.title,
		"description": nullable(f.description), "dependencies": f.deps, "path_scopes": f.scopes,
	}
	if f.id != nil {
		request["id"] = *f.id
	}
	return mutateAsActor(ctx, s, legacyMutation[TaskAnswer]{
		workspaceID: in.WorkspaceID, actor: actor, operation: "task.create", key: f.key, request: request,
		apply: func(ctx context.Context, tx Tx) (*TaskAnswer, error) {
			return s.insertTask(ctx, tx, in.WorkspaceID, actor, nil, f, false)
		},
	})
}

// CreateTaskForSession creates a task owned by the session plane.
func (s *Store) createTaskAsSession(ctx context.Context, cred Credential, in CreateTaskInput) (*answer.Of[TaskAnswer], error) {
	f, err := normalizeTaskFields(in)
	if err != nil {
		return nil, err
	}
	if err := normalizeSessionOptions(&f, in); err != nil {
		return nil, err
	}
	request := map[string]any{
		"idempotency_key": f.key, "title": f.title, "description": nullable(f.description), "dependencies": f.deps,
		"path_scopes": f.scopes, "work_mode": f.workMode, "completion_policy": f.policy,
		"expected_base_sha": nullable(f.expectedBase),
	}
	if f.id != nil {
		request["id"] = *f.id
	}
	return mutateAsSession(ctx, s, sessionMutation[TaskAnswer]{
		cred: cred, operation: "task.create.v2", key: f.key, request: request,
		apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*TaskAnswer, error) {
			return s.insertTask(ctx, tx, sess.WorkspaceID, sess.Actor, &sess.ID, f, true)
		},
	})
}

func (s *Store) insertTask(ctx context.Context, tx Tx, wsID, actor string, sessionID *string, f taskFields, v2 bool) (*TaskAnswer, error) {
	id := "task_" + newUUID()
	if f.id != nil {
		id = *f.id
	}
	if err := checkNewTaskDependencies(ctx, tx, wsID, id, f.deps); err != nil {
		return nil, err
	}
	now := s.nowISO()
	nt := NewTask{ID: id, WorkspaceID: wsID, Title: f.title, Description: f.description, Dependencies: f.deps,
		PathScopes: f.scopes, CreatedAt: now}
	if v2 {
		nt.SessionPlane, nt.WorkMode, nt.CompletionPolicy, nt.ExpectedBaseSHA = true, f.workMode, CompletionPolicy(f.policy), f.expectedBase
	}
	if err := tx.InsertTask(ctx, nt); err != nil {
		return nil, err
	}
	payload := map[string]any{
		"title": f.title, "description": nullable(f.description), "dependencies": f.deps, "path_scopes": f.scopes, "version": 1,
	}
	if v2 {
		payload["work_mode"], payload["completion_policy"], payload["expected_base_sha"] = f.workMode, f.policy, nullable(f.expectedBase)
	}
	if _, err := s.appendEvent(ctx, tx, wsID, newEvent{Type: journal.KindTaskCreated, EntityID: id, Actor: actor, SessionID: sessionID, Payload: payload}); err != nil {
		return nil, err
	}
	t, err := loadTask(ctx, tx, wsID, id, now)
	return &TaskAnswer{Task: t}, err
}

// checkNewTaskDependencies refuses a task that depends on itself or on a
// task the workspace does not have, and an id already taken.
func checkNewTaskDependencies(ctx context.Context, tx Evidence, wsID, id string, deps []string) error {
	for _, d := range deps {
		if d == id {
			return collaberr.New(collaberr.InvalidDependency, "A task cannot depend on itself").With("task_id", id)
		}
	}
	for _, d := range deps {
		exists, err := tx.Recorded(ctx, wsID, RecordTask, d)
		if err != nil {
			return err
		}
		if !exists {
			return taskNotFound(d)
		}
	}
	exists, err := tx.Recorded(ctx, wsID, RecordTask, id)
	if err != nil {
		return err
	}
	if exists {
		return collaberr.Newf(collaberr.TaskExists, "Task '%s' already exists; choose another task_id", id).With("task_id", id)
	}
	return nil
}
