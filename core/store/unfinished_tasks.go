package store

import "context"

// headTasks is what collab_next reads of a workspace's tasks at the
// snapshot head: the unfinished ones (open, claimed or blocked), listed
// through the status index, and any other task the answer names (a
// completed dependency, the task of an offer) read by id when it is first
// asked for. Every task the answer shows as available or claimed is
// unfinished, so the list holds them all; the point reads stand in for the
// completed rows the full list used to carry, and a history of finished
// work costs nothing per call.
type headTasks struct {
	q          Tasks
	wsID, now  string
	unfinished []Task
	byID       map[string]*Task
	// read memoises the point reads, a task found or not.
	read map[string]*Task
}

// readHeadTasks lists the workspace's unfinished tasks with their
// effective status at now, in (created_at, id) order.
func readHeadTasks(ctx context.Context, q Tasks, wsID, now string) (*headTasks, error) {
	list, err := q.Tasks(ctx, wsID, TaskFilter{Set: UnfinishedTasks})
	if err != nil {
		return nil, err
	}
	h := &headTasks{q: q, wsID: wsID, now: now, unfinished: list,
		byID: make(map[string]*Task, len(list)), read: map[string]*Task{}}
	for i := range list {
		list[i].EffectiveStatus = effectiveStatus(&list[i], now)
		h.byID[list[i].ID] = &list[i]
	}
	return h, nil
}

// task returns the workspace's task id as of the head; found is false
// when it does not exist.
func (h *headTasks) task(ctx context.Context, id string) (*Task, bool, error) {
	if t, ok := h.byID[id]; ok {
		return t, true, nil
	}
	if t, ok := h.read[id]; ok {
		return t, t != nil, nil
	}
	t, found, err := findTask(ctx, h.q, h.wsID, id, h.now)
	if err != nil {
		return nil, false, err
	}
	if !found {
		h.read[id] = nil
		return nil, false, nil
	}
	h.read[id] = &t
	return &t, true, nil
}
