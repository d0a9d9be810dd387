package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/normalize"
)

// LeaseInput identifies a lease-holder mutation of a task.
type LeaseInput struct {
	WorkspaceID     string
	actor           string // legacy label, set from the Actor
	TaskID          string
	LeaseID         string
	IdempotencyKey  string
	ExpectedVersion int64
}

type leaseFields struct {
	key, taskID, leaseID string
	version              int64
}

// normalizeLease validates the lease arguments in the session plane's order.
func normalizeLease(in LeaseInput) (leaseFields, error) {
	var f leaseFields
	var err error
	if f.key, err = normalize.IdempotencyKey(in.IdempotencyKey); err != nil {
		return f, err
	}
	if f.taskID, err = normalize.ID(in.TaskID, "task_id"); err != nil {
		return f, err
	}
	if f.leaseID, err = normalize.ID(in.LeaseID, "lease_id"); err != nil {
		return f, err
	}
	f.version, err = normalize.ExpectedVersion(in.ExpectedVersion)
	return f, err
}

// normalizeLegacyLease validates the lease arguments in the legacy order.
func normalizeLegacyLease(in LeaseInput) (string, leaseFields, error) {
	var f leaseFields
	var err error
	if f.version, err = normalize.ExpectedVersion(in.ExpectedVersion); err != nil {
		return "", f, err
	}
	actor, err := normalize.Actor(in.actor)
	if err != nil {
		return "", f, err
	}
	if f.key, err = normalize.IdempotencyKey(in.IdempotencyKey); err != nil {
		return "", f, err
	}
	if f.taskID, err = normalize.ID(in.TaskID, "task_id"); err != nil {
		return "", f, err
	}
	f.leaseID, err = normalize.ID(in.LeaseID, "lease_id")
	return actor, f, err
}

// leaseRequest is the request object shared by lease mutations: the
// session plane omits the workspace, actor and key; the legacy plane
// includes them.
func leaseRequest(wsID, actor string, f leaseFields, legacy bool) map[string]any {
	r := map[string]any{"task_id": f.taskID, "lease_id": f.leaseID, "expected_version": f.version}
	if legacy {
		r["workspace_id"], r["actor"], r["idempotency_key"] = wsID, actor, f.key
	}
	return r
}

// holder is who is acting on a lease: a session, or a legacy actor.
type holder struct {
	actor     string
	sessionID *string
}

func (h holder) session() bool { return h.sessionID != nil }

func versionConflict(expected, current int64) error {
	return collaberr.New(collaberr.VersionConflict, "The task changed since you read it; read it again").
		With("expected_version", expected).With("current_version", current)
}

// requireLease loads the task and checks the caller holds its live lease.
func requireLease(ctx context.Context, q Tasks, wsID string, f leaseFields, h holder, now string) (Task, error) {
	t, err := loadTaskAt(ctx, q, wsID, f.taskID, f.version, now)
	if err != nil {
		return t, err
	}
	if t.Status != TaskClaimed || t.LeaseID == nil || t.LeaseExpiresAt == nil {
		return t, collaberr.New(collaberr.LeaseNotActive, "The task has no active lease")
	}
	if !leaseLive(&t, now) {
		return t, collaberr.New(collaberr.LeaseExpired, "The task lease has expired").With("lease_expires_at", *t.LeaseExpiresAt)
	}
	holds := *t.LeaseID == f.leaseID
	if h.session() {
		holds = holds && t.AssigneeSessionID != nil && *t.AssigneeSessionID == *h.sessionID
	} else {
		holds = holds && t.Assignee != nil && *t.Assignee == h.actor
	}
	if !holds {
		e := collaberr.New(collaberr.LeaseNotHolder, "Only the current lease holder may do this").With("assignee", nullable(t.Assignee))
		if h.session() {
			e.With("assignee_session_id", nullable(t.AssigneeSessionID))
			e.Message = "Only the session holding the current lease may do this"
		}
		return t, e
	}
	return t, nil
}

// leaseChange is one lease-holder mutation: its operation name, extra
// request fields, and the change it applies to a task whose lease the
// caller holds.
type leaseChange[T any] struct {
	operation string
	extra     map[string]any
	// precheck, when set, runs inside the transaction before the task,
	// version and lease are checked, for refusals the reference gives first.
	precheck func(ctx context.Context, tx Tx, wsID string, h holder) error
	apply    func(ctx context.Context, tx Tx, t Task, h holder, now string) (*T, error)
}

// leaseCall is a validated lease-holder request: the session credential
// (nil in legacy mode), the legacy actor label, and the lease fields.
type leaseCall struct {
	cred        *Credential
	workspaceID string
	actor       string
	f           leaseFields
}

// newLeaseCall validates lease arguments in the plane's own order, so that
// refusals come out in the order each plane documents. Callers validate
// their own extra arguments after it.
func newLeaseCall(who Actor, in LeaseInput) (leaseCall, error) {
	lc := leaseCall{workspaceID: in.WorkspaceID}
	if cred, ok := who.Session(); ok {
		lc.cred = &cred
	}
	in.actor = who.Label()
	var err error
	if lc.cred != nil {
		lc.f, err = normalizeLease(in)
	} else {
		lc.actor, lc.f, err = normalizeLegacyLease(in)
	}
	return lc, err
}

// mutateLease runs a lease-holder change in either plane.
func mutateLease[T any](ctx context.Context, s *Store, lc leaseCall, c leaseChange[T]) (*answer.Of[T], error) {
	f := lc.f
	if lc.cred != nil {
		return mutateAsSession(ctx, s, sessionMutation[T]{
			cred: *lc.cred, operation: c.operation + ".v2", key: f.key, request: withExtra(leaseRequest("", "", f, false), c.extra),
			apply: func(ctx context.Context, tx Tx, sess CoordinationSession) (*T, error) {
				if sess.WorkspaceID != lc.workspaceID {
					return nil, collaberr.New(collaberr.SessionWorkspaceMismatch, "This process is bound to a session of another workspace")
				}
				h := holder{actor: sess.Actor, sessionID: &sess.ID}
				return applyLease(ctx, s, tx, sess.WorkspaceID, f, h, c)
			},
		})
	}
	return mutateAsActor(ctx, s, legacyMutation[T]{
		workspaceID: lc.workspaceID, actor: lc.actor, operation: c.operation, key: f.key,
		request: withExtra(leaseRequest(lc.workspaceID, lc.actor, f, true), c.extra),
		apply: func(ctx context.Context, tx Tx) (*T, error) {
			return applyLease(ctx, s, tx, lc.workspaceID, f, holder{actor: lc.actor}, c)
		},
	})
}

func applyLease[T any](ctx context.Context, s *Store, tx Tx, wsID string, f leaseFields, h holder, c leaseChange[T]) (*T, error) {
	if c.precheck != nil {
		if err := c.precheck(ctx, tx, wsID, h); err != nil {
			return nil, err
		}
	}
	now := s.nowISO()
	t, err := requireLease(ctx, tx, wsID, f, h, now)
	if err != nil {
		return nil, err
	}
	return c.apply(ctx, tx, t, h, now)
}

func withExtra(base, extra map[string]any) map[string]any {
	for k, v := range extra {
		base[k] = v
	}
	return base
}

// taskResult reloads a task after a change and wraps it as {task}.
func taskResult(ctx context.Context, q Tasks, wsID, taskID, now string) (*TaskAnswer, error) {
	t, err := loadTask(ctx, q, wsID, taskID, now)
	if err != nil {
		return nil, err
	}
	return &TaskAnswer{Task: t}, nil
}
