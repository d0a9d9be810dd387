package store

import (
	"context"
)

// StatusCounts counts every task once, by what a reader should act on.
type StatusCounts struct {
	Open      int `json:"open"`
	Claimed   int `json:"claimed"`
	Blocked   int `json:"blocked"`
	Completed int `json:"completed"`
}

// WorkspaceStatus is the summary collab_workspace_status returns.
type WorkspaceStatus struct {
	Workspace       Workspace             `json:"workspace"`
	Counts          StatusCounts          `json:"counts"`
	ExpiredClaims   int                   `json:"expired_claims"`
	ActiveClaims    []Task                `json:"active_claims"`
	BlockedTasks    []Task                `json:"blocked_tasks"`
	PendingReviews  []Task                `json:"pending_reviews"`
	ActiveSessions  []CoordinationSession `json:"active_sessions"`
	RecentDecisions []Decision            `json:"recent_decisions"`
	RecentReports   []Report              `json:"recent_reports"`
}

// Status summarises a workspace from one read snapshot. As in the
// reference, recent_reports holds the first 20 reports in journal order.
func (s *Store) Status(ctx context.Context, workspaceID string) (WorkspaceStatus, error) {
	var st WorkspaceStatus
	err := s.readTx(ctx, func(tx Tx) error {
		var err error
		if st.Workspace, err = readWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		if err := st.tallyTasks(ctx, tx, workspaceID, s.nowISO()); err != nil {
			return err
		}
		if st.ActiveSessions, err = activeSessions(ctx, tx, workspaceID); err != nil {
			return err
		}
		if st.RecentDecisions, err = recentDecisions(ctx, tx, workspaceID, 10); err != nil {
			return err
		}
		st.RecentReports, err = queryReports(ctx, tx, workspaceID, ReportFilter{Limit: 20})
		return err
	})
	return st, err
}

// tallyTasks fills the task half of the summary from the tasks still in
// play (every task it lists is unfinished or awaiting review) and the
// count of completed tasks, which the status index gives without reading
// a row.
func (st *WorkspaceStatus) tallyTasks(ctx context.Context, q Tasks, workspaceID, now string) error {
	tasks, err := q.Tasks(ctx, workspaceID, TaskFilter{Set: UnsettledTasks})
	if err != nil {
		return err
	}
	for i := range tasks {
		tasks[i].EffectiveStatus = effectiveStatus(&tasks[i], now)
	}
	st.tally(tasks)
	st.Counts.Completed, err = q.CountTasks(ctx, workspaceID, TaskCompleted)
	return err
}

// tally counts and sorts tasks into the summary's lists; the completed
// count it leaves is that of the tasks given.
func (st *WorkspaceStatus) tally(tasks []Task) {
	st.ActiveClaims, st.BlockedTasks, st.PendingReviews = []Task{}, []Task{}, []Task{}
	for _, t := range tasks {
		switch t.EffectiveStatus {
		case "lease_expired":
			st.Counts.Open++
			st.ExpiredClaims++
		case "recovery_required":
			st.Counts.Claimed++
			st.ExpiredClaims++
		default:
			switch t.Status {
			case TaskOpen:
				st.Counts.Open++
			case TaskClaimed:
				st.Counts.Claimed++
			case TaskBlocked:
				st.Counts.Blocked++
			case TaskCompleted:
				st.Counts.Completed++
			}
		}
		if t.EffectiveStatus == TaskClaimed {
			st.ActiveClaims = append(st.ActiveClaims, t)
		}
		if t.Status == TaskBlocked {
			st.BlockedTasks = append(st.BlockedTasks, t)
		}
		if t.ReviewStatus == ReviewPending {
			st.PendingReviews = append(st.PendingReviews, t)
		}
	}
}
