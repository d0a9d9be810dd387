package cli

import (
	"context"
	"io"

	"github.com/agenttool/collab/core/store"
)

// taskComplete reports a task the person holds as done, with a summary
// (which may be piped in) and the evidence references the tool takes. A
// task under review then waits for another session to accept it.
func taskComplete(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const usage = "task complete TASK --summary TEXT | --stdin | --file F [--evidence REF]... " +
		"[--confidence high|medium|low|unknown] [--basis TEXT] [--limits TEXT] [--json]"
	fs, c := newFlags("task complete", usage, stdout, stderr)
	summary := longTextVar(fs, "summary", "what was done `TEXT`")
	evidence := listVar(fs, "evidence", "an evidence reference `REF` such as report:<id> or event:<id> (repeat for more)")
	confidence := fs.String("confidence", "", "how sure you are `C`: high, medium, low or unknown (default)")
	basis := fs.String("basis", "", "why you are that sure")
	limits := fs.String("limits", "", "what the work does not cover")
	var in store.CompleteInput
	check := func(v *view) error {
		if _, err := heldTask(ctx, v, c, usage, &in.Lease); err != nil {
			return err
		}
		text, hasText, err := summary.read(stdin)
		if err != nil {
			return err
		}
		if !hasText {
			return usageProblem("task complete needs a summary", usage)
		}
		a, err := checked("collab_task_complete", withSet(withSet(withSet(map[string]string{"summary": text},
			"confidence", *confidence), "confidence_basis", *basis), "limits", *limits))
		if err != nil {
			return err
		}
		in.Summary, in.Confidence, in.ConfidenceBasis, in.Limits = a["summary"], given(a, "confidence"), given(a, "confidence_basis"), given(a, "limits")
		in.EvidenceRefs, err = checkedList("collab_task_complete", "evidence_refs", *evidence)
		return err
	}
	return checkedAct(ctx, fs, c, args, stdout, stderr, check, func(s *personSeat) (any, string, error) {
		who, err := s.caller()
		if err != nil {
			return nil, "", err
		}
		in.Lease.IdempotencyKey = key()
		res, err := s.st.CompleteTask(ctx, who, in)
		if err != nil {
			return nil, "", s.named(ctx, err)
		}
		line := "completed " + in.Lease.TaskID
		if a, ok := res.Value(); ok && a.Task.ReviewStatus == store.ReviewPending {
			line = "reported " + in.Lease.TaskID + " complete; it waits for another session to accept it (collab review)"
		}
		return answerOf(res, line)
	})
}
