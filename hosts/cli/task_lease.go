package cli

import (
	"context"
	"flag"
	"io"
	"strconv"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// readTask reads the task a person's command names, as collab_task_get
// would, and refuses an unknown one in the rule's words.
func readTask(ctx context.Context, v *view, id string) (store.TaskWithArtifacts, error) {
	a, err := checked("collab_task_get", map[string]string{"task_id": id})
	if err != nil {
		return store.TaskWithArtifacts{}, err
	}
	t, err := v.st.GetTask(ctx, v.ws.ID, a["task_id"])
	if ce, ok := collaberr.As(err); ok && ce.Code == string(collaberr.TaskNotFound) {
		return t, ruleProblem(ce.Code, " ("+id+")")
	}
	return t, err
}

// leaseOf is the lease a holder's action on t acts on. A task that holds
// no lease is refused here, before the session is touched; whether the
// lease is live and the person's is for the store to say.
func leaseOf(t store.TaskWithArtifacts) (store.LeaseInput, error) {
	if t.Status != store.TaskClaimed || t.LeaseID == nil {
		return store.LeaseInput{}, ruleProblem(string(collaberr.LeaseNotActive), " ("+t.ID+" is "+string(t.EffectiveStatus)+")")
	}
	return store.LeaseInput{WorkspaceID: t.WorkspaceID, TaskID: t.ID, LeaseID: *t.LeaseID, ExpectedVersion: t.Version}, nil
}

// ttlVar declares --ttl SECONDS; 0 (unset) leaves the tool's default.
func ttlVar(fs *flag.FlagSet) *int64 {
	return fs.Int64("ttl", 0, "lease length in `SECONDS` (30 to 3600, default 900)")
}

// ttlOf is --ttl as the optional ttl_seconds of tool, checked.
func ttlOf(tool string, ttl int64) (*int64, error) {
	if ttl == 0 {
		return nil, nil
	}
	if err := checkedCount(tool, "ttl_seconds", ttl); err != nil {
		return nil, err
	}
	return &ttl, nil
}

// oneTask is the task id a lease command takes as its only argument.
func oneTask(c *common, usage string) (string, error) {
	if len(c.args) != 1 {
		return "", usageProblem("name one task", usage)
	}
	return c.args[0], nil
}

// taskClaim takes the lease on a task for the person's session.
func taskClaim(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "task claim TASK [--ttl SECONDS] [--json]"
	fs, c := newFlags("task claim", usage, stdout, stderr)
	ttl := ttlVar(fs)
	var in store.ClaimInput
	check := func(v *view) error {
		id, err := oneTask(c, usage)
		if err != nil {
			return err
		}
		t, err := readTask(ctx, v, id)
		if err != nil {
			return err
		}
		in = store.ClaimInput{WorkspaceID: v.ws.ID, TaskID: t.ID, ExpectedVersion: t.Version}
		in.TTLSeconds, err = ttlOf("collab_task_claim", *ttl)
		return err
	}
	return checkedAct(ctx, fs, c, args, stdout, stderr, check, func(s *personSeat) (any, string, error) {
		who, err := s.caller()
		if err != nil {
			return nil, "", err
		}
		in.IdempotencyKey = key()
		res, err := s.st.ClaimTask(ctx, who, in)
		if err != nil {
			return nil, "", s.named(ctx, err)
		}
		return answerOf(res, leaseLine("claimed", res))
	})
}

// taskRenew extends the person's lease on a task.
func taskRenew(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "task renew TASK [--ttl SECONDS] [--json]"
	fs, c := newFlags("task renew", usage, stdout, stderr)
	ttl := ttlVar(fs)
	var in store.LeaseInput
	var seconds *int64
	check := func(v *view) error {
		if _, err := heldTask(ctx, v, c, usage, &in); err != nil {
			return err
		}
		var err error
		seconds, err = ttlOf("collab_task_renew", *ttl)
		return err
	}
	return checkedAct(ctx, fs, c, args, stdout, stderr, check, func(s *personSeat) (any, string, error) {
		who, err := s.caller()
		if err != nil {
			return nil, "", err
		}
		in.IdempotencyKey = key()
		res, err := s.st.RenewLease(ctx, who, in, seconds)
		if err != nil {
			return nil, "", s.named(ctx, err)
		}
		return answerOf(res, leaseLine("renewed", res))
	})
}

// heldTask reads the one task a holder's command names and the lease it
// acts on into in.
func heldTask(ctx context.Context, v *view, c *common, usage string, in *store.LeaseInput) (store.TaskWithArtifacts, error) {
	id, err := oneTask(c, usage)
	if err != nil {
		return store.TaskWithArtifacts{}, err
	}
	t, err := readTask(ctx, v, id)
	if err != nil {
		return t, err
	}
	*in, err = leaseOf(t)
	return t, err
}

// taskRelease gives a task the person holds back to the open pool.
func taskRelease(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "task release TASK [--summary TEXT] [--json]"
	fs, c := newFlags("task release", usage, stdout, stderr)
	summary := fs.String("summary", "", "what was done and what is left, for whoever takes it next")
	var in store.LeaseInput
	var text *string
	check := func(v *view) error {
		if _, err := heldTask(ctx, v, c, usage, &in); err != nil {
			return err
		}
		a, err := checked("collab_task_release", withSet(map[string]string{}, "summary", *summary))
		text = given(a, "summary")
		return err
	}
	return checkedAct(ctx, fs, c, args, stdout, stderr, check, func(s *personSeat) (any, string, error) {
		who, err := s.caller()
		if err != nil {
			return nil, "", err
		}
		in.IdempotencyKey = key()
		res, err := s.st.ReleaseLease(ctx, who, in, text)
		if err != nil {
			return nil, "", s.named(ctx, err)
		}
		return answerOf(res, "released "+in.TaskID+"; it is open again")
	})
}

// leaseLine says what a lease action left: "claimed T "title" until TIME
// (version N)".
func leaseLine(did string, res *answer.Of[store.TaskAnswer]) string {
	a, ok := res.Value()
	if !ok || a.Task.LeaseExpiresAt == nil {
		return did + " the task"
	}
	t := a.Task
	return did + " " + t.ID + " " + quoted(t.Title) + " until " + *t.LeaseExpiresAt + " (version " + strconv.FormatInt(t.Version, 10) + ")"
}
