package cli

import (
	"context"
	"io"
	"strings"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/store"
)

// taskCreate creates a task in the person's session: what
// collab_task_create takes from a bound session, with the same bounds.
// Every input is checked before the session is touched.
func taskCreate(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	const usage = "task create TITLE... [--id ID] [--path P]... [--depends TASK]... [--mode edit|read_only|coordination] " +
		"[--policy reported|accepted] [--description TEXT | --stdin | --file F] [--json]"
	fs, c := newFlags("task create", usage, stdout, stderr)
	id := fs.String("id", "", "the task's id `ID` (default: a generated one)")
	paths := listVar(fs, "path", "a repository-relative path `P` the task may change (repeat for more)")
	depends := listVar(fs, "depends", "a task `TASK` that must be done first (repeat for more)")
	mode := fs.String("mode", "", "work mode `M`: edit (default; needs --path), read_only or coordination")
	policy := fs.String("policy", "", "completion policy `P`: accepted (default for edit: another session reviews) or reported")
	description := longTextVar(fs, "description", "the task's description `TEXT`")
	var in store.CreateTaskInput
	check := func(v *view) error {
		if len(c.args) == 0 {
			return usageProblem("task create needs a title", usage)
		}
		text, hasText, err := description.read(stdin)
		if err != nil {
			return err
		}
		sent := withSet(withSet(withSet(map[string]string{"title": strings.Join(c.args, " ")}, "task_id", *id),
			"work_mode", *mode), "completion_policy", *policy)
		if hasText {
			sent["description"] = text
		}
		a, err := checked("collab_task_create", sent)
		if err != nil {
			return err
		}
		in = store.CreateTaskInput{WorkspaceID: v.ws.ID, Title: a["title"], TaskID: given(a, "task_id"),
			Description: given(a, "description"), WorkMode: given(a, "work_mode"), CompletionPolicy: given(a, "completion_policy")}
		if in.PathScopes, err = checkedList("collab_task_create", "path_scopes", *paths); err != nil {
			return err
		}
		in.Dependencies, err = checkedList("collab_task_create", "dependencies", *depends)
		return err
	}
	return checkedAct(ctx, fs, c, args, stdout, stderr, check, func(s *personSeat) (any, string, error) {
		who, err := s.caller()
		if err != nil {
			return nil, "", err
		}
		in.IdempotencyKey = key()
		res, err := s.st.CreateTask(ctx, who, in)
		if err != nil {
			return nil, "", s.named(ctx, err)
		}
		return answerOf(res, createdLine(res))
	})
}

// createdLine says what was created: "created notes "Write the notes"
// (edit notes/; another session reviews its completion)".
func createdLine(res *answer.Of[store.TaskAnswer]) string {
	a, ok := res.Value()
	if !ok {
		return "created the task (an earlier answer, replayed)"
	}
	t := a.Task
	line := "created " + t.ID + " " + quoted(t.Title) + " (" + t.WorkMode
	if len(t.PathScopes) > 0 {
		line += " " + strings.Join(t.PathScopes, ", ")
	}
	if len(t.Dependencies) > 0 {
		line += "; after " + strings.Join(t.Dependencies, ", ")
	}
	if t.CompletionPolicy == "accepted" {
		line += "; another session reviews its completion"
	}
	return line + ")"
}
