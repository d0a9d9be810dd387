package web

import (
	"context"
	"net/url"

	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/store"
)

// An action is one form of the acting page: it reads the posted form
// (refusing bad input before anything is sent), acts as the person's
// session and returns the query that tells the page what was done.
type action func(ctx context.Context, a *acts, ws store.Workspace, in *formInput) (url.Values, error)

// actions are the forms the acting page posts, by the last path segment.
var actions = map[string]action{
	"post":    postReport,
	"decide":  recordDecision,
	"review":  reviewTask,
	"handoff": answerHandoff,
	"create":  createTask,
	"release": releaseTask,
}

// done is the query of the page shown after an action: what was done, to what.
func done(what, id string) url.Values { return url.Values{"done": {what}, "id": {id}} }

// formKey is the idempotency key the page put in the form, so that a form
// sent twice (a double click, a resent post) records one action.
func formKey(in *formInput) string { return in.text("key", field.IdempotencyKey, true) }

func postReport(ctx context.Context, a *acts, ws store.Workspace, in *formInput) (url.Values, error) {
	r := store.AppendReportInput{IdempotencyKey: formKey(in), Kind: in.choice("kind", "observation", "inference", "proposal"),
		Body: in.text("body", field.Body, true), ToSessionID: in.optional("to", field.ToSessionID), TaskID: in.optional("task", field.TaskID)}
	if err := in.err(); err != nil {
		return nil, err
	}
	var id string
	err := a.with(ctx, ws, func(cred store.Credential) error {
		res, err := a.opts.Store.AppendReport(ctx, cred, r)
		if err == nil {
			v, _ := res.Value()
			id = v.Report.ID
		}
		return err
	})
	return done("posted", id), err
}

func recordDecision(ctx context.Context, a *acts, ws store.Workspace, in *formInput) (url.Values, error) {
	scope, basis := "this workspace", "decided by a person in the collab web view"
	d := store.RecordDecisionInput{WorkspaceID: ws.ID, IdempotencyKey: formKey(in), Topic: in.text("topic", field.Topic, true),
		Decision: in.text("decision", field.Decision, true), Rationale: in.optional("rationale", field.Rationale),
		AuthorityScope: &scope, AuthorityBasis: &basis}
	if err := in.err(); err != nil {
		return nil, err
	}
	err := a.with(ctx, ws, func(cred store.Credential) error {
		_, err := a.opts.Store.RecordDecision(ctx, store.SessionActor(cred), d)
		return err
	})
	return done("decided", ""), err
}

// reviewTask accepts a reported completion or sends it back, at the
// version the page showed: a change since is refused as a version
// conflict, not reviewed unseen.
func reviewTask(ctx context.Context, a *acts, ws store.Workspace, in *formInput) (url.Values, error) {
	r := store.ReviewInput{WorkspaceID: ws.ID, IdempotencyKey: formKey(in), TaskID: in.text("task", field.TaskID, true),
		ExpectedVersion: in.version(), Outcome: in.choice("outcome", "accept", "request_changes"),
		Summary: in.text("summary", field.Summary, false)}
	if r.Summary == "" {
		r.Summary = "Reviewed in the web view."
	}
	if err := in.err(); err != nil {
		return nil, err
	}
	err := a.with(ctx, ws, func(cred store.Credential) error {
		_, err := a.opts.Store.ReviewTask(ctx, cred, r)
		return err
	})
	if r.Outcome == "accept" {
		return done("accepted", r.TaskID), err
	}
	return done("sent-back", r.TaskID), err
}

func answerHandoff(ctx context.Context, a *acts, ws store.Workspace, in *formInput) (url.Values, error) {
	r := store.RespondInput{WorkspaceID: ws.ID, IdempotencyKey: formKey(in), HandoffID: in.text("handoff", field.HandoffID, true),
		ExpectedVersion: in.version(), Response: in.choice("response", "accept", "decline")}
	if err := in.err(); err != nil {
		return nil, err
	}
	err := a.with(ctx, ws, func(cred store.Credential) error {
		_, err := a.opts.Store.RespondToHandoff(ctx, store.SessionActor(cred), r)
		return err
	})
	if r.Response == "accept" {
		return done("took-over", r.HandoffID), err
	}
	return done("declined", r.HandoffID), err
}

func createTask(ctx context.Context, a *acts, ws store.Workspace, in *formInput) (url.Values, error) {
	mode := in.choice("mode", "edit", "coordination", "read_only")
	c := store.CreateTaskInput{WorkspaceID: ws.ID, IdempotencyKey: formKey(in), TaskID: in.optional("task", field.NewTaskID),
		Title: in.text("title", field.Title, true), Description: in.optional("description", field.Description),
		PathScopes: in.list("paths", field.PathScopes), Dependencies: in.list("depends", field.Dependencies), WorkMode: &mode}
	if err := in.err(); err != nil {
		return nil, err
	}
	var id string
	err := a.with(ctx, ws, func(cred store.Credential) error {
		res, err := a.opts.Store.CreateTask(ctx, store.SessionActor(cred), c)
		if err == nil {
			v, _ := res.Value()
			id = v.Task.ID
		}
		return err
	})
	return done("created", id), err
}

// releaseTask gives up a lease the person's own session holds. The lease
// id is looked up here rather than put in the page.
func releaseTask(ctx context.Context, a *acts, ws store.Workspace, in *formInput) (url.Values, error) {
	key, task, version := formKey(in), in.text("task", field.TaskID, true), in.version()
	summary := in.optional("summary", field.ReleaseSummary)
	if err := in.err(); err != nil {
		return nil, err
	}
	err := a.with(ctx, ws, func(cred store.Credential) error {
		got, err := a.opts.Store.GetTask(ctx, ws.ID, task)
		if err != nil {
			return err
		}
		t := got.Task
		if t.LeaseID == nil || t.AssigneeSessionID == nil || *t.AssigneeSessionID != cred.SessionID {
			return actionError{what: "your session does not hold task " + task, fix: "only the holder releases a lease; the board shows who holds it", code: "lease_not_holder"}
		}
		_, err = a.opts.Store.ReleaseLease(ctx, store.SessionActor(cred), store.LeaseInput{WorkspaceID: ws.ID, TaskID: task,
			LeaseID: *t.LeaseID, IdempotencyKey: key, ExpectedVersion: version}, summary)
		return err
	})
	return done("released", task), err
}
