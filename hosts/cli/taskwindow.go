package cli

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// recentCompleted is how many of the newest completed tasks people's task
// views show beside the live ones; `collab tasks --all` shows every one.
const recentCompleted = 20

// taskWindow reads what status and tasks show by default: every task not
// completed, every completion awaiting review and the recentCompleted
// newest completed tasks, sorted by id, and how many completed tasks it
// leaves out.
func taskWindow(ctx context.Context, v *view) ([]store.Task, int, error) {
	w, err := v.st.TaskWindowOf(ctx, v.ws.ID, recentCompleted)
	if err != nil {
		return nil, 0, fmt.Errorf("read the tasks: %w", err)
	}
	sortByID(w.Tasks)
	return w.Tasks, w.Hidden, nil
}

// hiddenLine says how many completed tasks a bounded view left out and
// how to see them; "" when it left out none.
func hiddenLine(hidden int, how string) string {
	if hidden == 0 {
		return ""
	}
	return fmt.Sprintf("and %d more completed; %s", hidden, how)
}
