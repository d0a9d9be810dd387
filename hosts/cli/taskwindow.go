package cli

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// recentCompleted is how many of the newest completed tasks people's task
// views show beside the live ones; `collab tasks --all` shows every one.
const recentCompleted = 20

// shownTasks is what status and tasks show by default: every task not
// completed, every completion awaiting review and the recentCompleted
// newest completed tasks, sorted by id; the tasks awaiting review among
// them in (created_at, id) order, as collab_workspace_status lists them
// (the window holds every one); and how many completed tasks it leaves
// out.
type shownTasks struct {
	tasks, pending []store.Task
	hidden         int
}

func taskWindow(ctx context.Context, v *view) (shownTasks, error) {
	w, err := v.st.TaskWindowOf(ctx, v.ws.ID, recentCompleted)
	if err != nil {
		return shownTasks{}, fmt.Errorf("read the tasks: %w", err)
	}
	out := shownTasks{tasks: w.Tasks, pending: []store.Task{}, hidden: w.Hidden}
	for _, t := range w.Tasks {
		if t.ReviewStatus == store.ReviewPending {
			out.pending = append(out.pending, t)
		}
	}
	sortByID(out.tasks)
	return out, nil
}

// hiddenLine says how many completed tasks a bounded view left out and
// how to see them; "" when it left out none.
func hiddenLine(hidden int, how string) string {
	if hidden == 0 {
		return ""
	}
	return fmt.Sprintf("and %d more completed; %s", hidden, how)
}
