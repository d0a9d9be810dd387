package cli

import (
	"context"
	"io"

	"github.com/agenttool/collab/core/store"
)

// taskRecover acknowledges a session lease that ran out, with a note, and
// takes the task over (the default), releases it or blocks it, as
// collab_task_recover does. Work done under the lost lease is not
// accepted by this.
func taskRecover(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "task recover TASK --note TEXT [--action takeover|release|block] [--blocker TEXT] [--ttl SECONDS] [--json]"
	fs, c := newFlags("task recover", usage, stdout, stderr)
	note := fs.String("note", "", "what you know of the lost lease and why you recover it")
	action := fs.String("action", "", "`A`: takeover (default: you hold it), release (back to the pool) or block")
	blocker := fs.String("blocker", "", "what blocks the task, with --action block")
	ttl := ttlVar(fs)
	var in store.RecoverInput
	check := func(v *view) error {
		id, err := oneTask(c, usage)
		if err != nil {
			return err
		}
		if *note == "" {
			return usageProblem("task recover needs a --note", usage)
		}
		t, err := readTask(ctx, v, id)
		if err != nil {
			return err
		}
		a, err := checked("collab_task_recover", withSet(withSet(map[string]string{"task_id": t.ID, "recovery_note": *note},
			"action", *action), "blocker", *blocker))
		if err != nil {
			return err
		}
		in = store.RecoverInput{WorkspaceID: v.ws.ID, TaskID: t.ID, ExpectedVersion: t.Version,
			RecoveryNote: a["recovery_note"], Action: given(a, "action"), Blocker: given(a, "blocker")}
		in.TTLSeconds, err = ttlOf("collab_task_recover", *ttl)
		return err
	}
	return checkedAct(ctx, fs, c, args, stdout, stderr, check, func(s *personSeat) (any, string, error) {
		cred, err := s.credential()
		if err != nil {
			return nil, "", err
		}
		in.IdempotencyKey = key()
		res, err := s.st.RecoverTask(ctx, cred, in)
		if err != nil {
			return nil, "", s.named(ctx, err)
		}
		line := "recovered " + in.TaskID
		if a, ok := res.Value(); ok {
			switch a.Task.Status {
			case store.TaskClaimed:
				line += ": you hold it until " + deref(a.Task.LeaseExpiresAt)
			case store.TaskBlocked:
				line += ": it is blocked"
			default:
				line += ": it is open again"
			}
		}
		return answerOf(res, line)
	})
}
