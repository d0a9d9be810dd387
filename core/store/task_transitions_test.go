package store

import (
	"encoding/json"
	"testing"
)

// The transitions are what the task writes of the engines used to decide
// in SQL; these cases are the same promises, checked on the rows.

const (
	tNow   = "2026-01-01T00:00:01.000Z"
	tLater = "2026-01-01T02:00:00.000Z"
)

func tStr(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func sessionLeaseFor(id string) Lease {
	session, worktree := "session_1", "wt_1"
	return Lease{ID: id, ExpiresAt: tLater, Assignee: "agent", SessionID: &session, WorktreeID: &worktree,
		BaseCheckpoint: json.RawMessage(`{"head_sha":null}`)}
}

func openTask() Task {
	return Task{ID: "task_1", WorkspaceID: "ws", Status: TaskOpen, ReviewStatus: ReviewNotRequired, Version: 1,
		CoordinationMode: "session_v2", PathScopes: []string{"src"}}
}

func heldTask() Task { return claimed(openTask(), sessionLeaseFor("lease_held"), tNow) }

func reportedTask() Task {
	return reportedComplete(heldTask(), Completion{ReviewStatus: ReviewPending, Summary: "done",
		ResultCheckpoint: json.RawMessage(`{"dirty":false}`), ReportID: "report_1", ReportedBy: "agent", ReportedBySessionID: "session_1"}, tNow)
}

func TestTaskTransitions(t *testing.T) {
	cases := []struct {
		name   string
		before Task
		after  Task
		ok     func(t Task) bool
	}{
		{"LegacyClaimLeavesSessionColumns", openTask(), claimed(openTask(), Lease{ID: "lease_l", ExpiresAt: tLater, Assignee: "label"}, tNow),
			func(t Task) bool {
				return t.Status == TaskClaimed && tStr(t.Assignee) == "label" && tStr(t.LeaseID) == "lease_l" &&
					t.AssigneeSessionID == nil && t.ClaimWorktreeID == nil && t.BaseCheckpoint == nil
			}},
		{"SessionClaimClearsEarlierReview", reportedTask(), claimed(reportedTask(), sessionLeaseFor("lease_again"), tNow),
			func(t Task) bool {
				return t.Status == TaskClaimed && tStr(t.AssigneeSessionID) == "session_1" && tStr(t.ClaimWorktreeID) == "wt_1" &&
					t.ReviewStatus == ReviewNotRequired && t.ResultCheckpoint == nil && t.CompletionReportID == nil &&
					t.ReportedBySessionID == nil && t.CompletedAt == nil && t.CoordinationMode == "session_v2" &&
					string(t.BaseCheckpoint) == `{"head_sha":null}`
			}},
		{"RenewMovesOnlyTheExpiry", heldTask(), renewed(heldTask(), "2026-01-02T00:00:00.000Z", tNow), func(t Task) bool {
			return tStr(t.LeaseExpiresAt) == "2026-01-02T00:00:00.000Z" && tStr(t.LeaseID) == "lease_held" && t.Status == TaskClaimed
		}},
		{"LegacyReleaseKeepsSessionColumns", heldTask(), released(heldTask(), false, tNow), func(t Task) bool {
			return t.Status == TaskOpen && t.Assignee == nil && t.LeaseID == nil && t.LeaseExpiresAt == nil && tStr(t.AssigneeSessionID) == "session_1"
		}},
		{"SessionReleaseClearsSessionColumns", heldTask(), released(heldTask(), true, tNow), func(t Task) bool {
			return t.Status == TaskOpen && t.AssigneeSessionID == nil && t.ClaimWorktreeID == nil && t.LeaseID == nil
		}},
		{"ExpireSessionLease", heldTask(), expired(heldTask(), tNow), func(t Task) bool {
			return t.Status == TaskOpen && t.Assignee == nil && t.AssigneeSessionID == nil && t.ClaimWorktreeID == nil && t.LeaseExpiresAt == nil
		}},
		{"TakeOverKeepsReviewState", openTask(), takenOver(openTask(), sessionLeaseFor("lease_taken"), tNow), func(t Task) bool {
			return t.Status == TaskClaimed && tStr(t.LeaseID) == "lease_taken" && tStr(t.AssigneeSessionID) == "session_1" &&
				t.ReviewStatus == ReviewNotRequired && t.BaseCheckpoint != nil
		}},
		{"TransferKeepsStatus", heldTask(), transferred(heldTask(), Lease{ID: "lease_moved", ExpiresAt: tLater, Assignee: "recipient"}, tNow),
			func(t Task) bool {
				return t.Status == TaskClaimed && tStr(t.Assignee) == "recipient" && tStr(t.LeaseID) == "lease_moved" &&
					tStr(t.AssigneeSessionID) == "session_1"
			}},
		{"Progress", heldTask(), progressed(heldTask(), "halfway", tNow), func(t Task) bool {
			return tStr(t.LatestProgress) == "halfway" && t.Status == TaskClaimed
		}},
		{"Block", heldTask(), blocked(heldTask(), "waiting", true, tNow), func(t Task) bool {
			return t.Status == TaskBlocked && tStr(t.Blocker) == "waiting" && t.LeaseID == nil && t.AssigneeSessionID == nil
		}},
		{"Unblock", blocked(heldTask(), "waiting", true, tNow), unblocked(blocked(heldTask(), "waiting", true, tNow), true, tNow),
			func(t Task) bool {
				return t.Status == TaskOpen && t.Blocker == nil && t.ReviewStatus == ReviewNotRequired
			}},
		{"Accept", reportedTask(), acceptedBy(reportedTask(), "reviewer", "session_2", tNow), func(t Task) bool {
			return t.Status == TaskCompleted && t.ReviewStatus == ReviewAccepted && t.ReviewGeneration == 1 &&
				tStr(t.AcceptedBy) == "reviewer" && tStr(t.AcceptedAt) == tNow && string(t.ResultCheckpoint) == `{"dirty":false}` &&
				tStr(t.CompletionReportID) == "report_1" && t.LeaseID == nil && t.AssigneeSessionID == nil
		}},
		{"RequestChangesReopens", reportedTask(), changesRequested(reportedTask(), tNow), func(t Task) bool {
			return t.Status == TaskOpen && t.ReviewStatus == ReviewChangesRequested && t.CompletedAt == nil
		}},
		{"LegacyComplete", heldTask(), completedLegacy(heldTask(), "finished", tNow), func(t Task) bool {
			return t.Status == TaskCompleted && tStr(t.LatestProgress) == "finished" && tStr(t.CompletedAt) == tNow &&
				t.LeaseID == nil && t.ReviewStatus == ReviewNotRequired && tStr(t.AssigneeSessionID) == "session_1"
		}},
		{"SettleBlocks", expired(heldTask(), tNow), settled(expired(heldTask(), tNow), TaskBlocked, ptrTo("lost"), tNow), func(t Task) bool {
			return t.Status == TaskBlocked && tStr(t.Blocker) == "lost"
		}},
		{"TouchOnly", heldTask(), touched(heldTask(), tNow), func(t Task) bool {
			return t.Status == TaskClaimed && tStr(t.LeaseID) == "lease_held"
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.after.Version != c.before.Version+1 || c.after.UpdatedAt != tNow {
				t.Errorf("version %d -> %d, updated_at %q; want one step at %s", c.before.Version, c.after.Version, c.after.UpdatedAt, tNow)
			}
			if !c.ok(c.after) {
				t.Errorf("left %+v", c.after)
			}
		})
	}
}

func ptrTo(s string) *string { return &s }
