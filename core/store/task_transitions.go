package store

import "encoding/json"

// This file holds when a lease is live and every change the rules make to
// a stored task, each a pure function from the row as read to the row as
// it must be stored; TaskWrites.UpdateTask then writes the columns that
// differ. Each change moves the version by one and stamps updated_at with
// now.

// leaseLive reports whether t's lease runs past now: a lease is live
// strictly before its expiry and never without one.
func leaseLive(t *Task, now string) bool {
	return t.LeaseExpiresAt != nil && now < *t.LeaseExpiresAt
}

// leaseLapsed reports whether t is claimed under a lease that has run out
// at now: the clock, not a writer, has ended the claim.
func leaseLapsed(t *Task, now string) bool {
	return t.Status == TaskClaimed && t.LeaseExpiresAt != nil && !leaseLive(t, now)
}

// touched is t as any write at now leaves it. It is also the whole change
// when something stored beside the task (an artifact, a handoff offer or
// answer) must be noticed by the task's readers.
func touched(t Task, now string) Task {
	t.Version++
	t.UpdatedAt = now
	return t
}

// stored is the checkpoint as a lease or completion stores it: byte for
// byte, an absent one as empty text rather than NULL.
func stored(v json.RawMessage) json.RawMessage {
	if v == nil {
		return json.RawMessage{}
	}
	return v
}

// unleased is t without an assignee or lease; withSession also drops the
// assignee session and the claim worktree (a legacy writer never touches
// them).
func unleased(t Task, withSession bool) Task {
	t.Assignee, t.LeaseID, t.LeaseExpiresAt = nil, nil, nil
	if withSession {
		t.AssigneeSessionID, t.ClaimWorktreeID = nil, nil
	}
	return t
}

// unaccepted is t without a record of acceptance.
func unaccepted(t Task) Task {
	t.AcceptedBy, t.AcceptedBySessionID, t.AcceptedAt = nil, nil, nil
	return t
}

// progressed records the task's latest progress note.
func progressed(t Task, message, now string) Task {
	t = touched(t, now)
	t.LatestProgress = &message
	return t
}

// blocked sets the task aside with a blocker and gives up its lease.
func blocked(t Task, blocker string, clearSession bool, now string) Task {
	t = unleased(touched(t, now), clearSession)
	t.Status, t.Blocker = TaskBlocked, &blocker
	return t
}

// unblocked reopens a blocked task; resetReview also forgets an earlier
// review outcome.
func unblocked(t Task, resetReview bool, now string) Task {
	t = touched(t, now)
	t.Status, t.Blocker = TaskOpen, nil
	if resetReview {
		t.ReviewStatus = ReviewNotRequired
	}
	return t
}

// completedLegacy records a legacy completion; the session and review
// columns stay as they are.
func completedLegacy(t Task, summary, now string) Task {
	t = unleased(touched(t, now), false)
	t.Status, t.Blocker, t.LatestProgress, t.CompletedAt = TaskCompleted, nil, &summary, &now
	return t
}

// reportedComplete records a session's completion with c's review status,
// opening a new review generation and forgetting an earlier acceptance.
func reportedComplete(t Task, c Completion, now string) Task {
	t = unaccepted(unleased(touched(t, now), true))
	t.Status, t.ReviewStatus, t.Blocker = TaskCompleted, c.ReviewStatus, nil
	t.ReviewGeneration++
	t.LatestProgress, t.ResultCheckpoint, t.CompletionReportID = &c.Summary, stored(c.ResultCheckpoint), &c.ReportID
	t.ReportedBy, t.ReportedBySessionID, t.ReportedAt, t.CompletedAt = &c.ReportedBy, &c.ReportedBySessionID, &now, &now
	return t
}

// acceptedBy records the acceptance of a reported completion.
func acceptedBy(t Task, actor, sessionID, now string) Task {
	t = touched(t, now)
	t.ReviewStatus, t.AcceptedBy, t.AcceptedBySessionID, t.AcceptedAt = ReviewAccepted, &actor, &sessionID, &now
	return t
}

// changesRequested reopens a reported task for more work.
func changesRequested(t Task, now string) Task {
	t = unaccepted(touched(t, now))
	t.Status, t.ReviewStatus, t.CompletedAt = TaskOpen, ReviewChangesRequested, nil
	return t
}

// settled leaves a task whose expired lease was recovered without a
// takeover open or blocked.
func settled(t Task, status TaskStatus, blocker *string, now string) Task {
	t = touched(t, now)
	t.Status, t.Blocker = status, blocker
	return t
}

// leased gives l to t: the assignee and lease, and for a session lease
// the session, claim worktree and base checkpoint.
func leased(t Task, l Lease) Task {
	t.Assignee, t.LeaseID, t.LeaseExpiresAt = &l.Assignee, &l.ID, &l.ExpiresAt
	if l.SessionID != nil {
		session := *l.SessionID
		t.AssigneeSessionID, t.ClaimWorktreeID, t.BaseCheckpoint = &session, l.WorktreeID, stored(l.BaseCheckpoint)
	}
	return t
}

// claimed gives l to an available task. A session lease also moves the
// task to the session plane and forgets the review state of any earlier
// completion.
func claimed(t Task, l Lease, now string) Task {
	t = leased(touched(t, now), l)
	t.Status, t.Blocker = TaskClaimed, nil
	if l.SessionID != nil {
		t = unaccepted(t)
		t.CoordinationMode, t.ReviewStatus = "session_v2", ReviewNotRequired
		t.ResultCheckpoint, t.CompletionReportID, t.CompletedAt = nil, nil, nil
		t.ReportedBy, t.ReportedBySessionID, t.ReportedAt = nil, nil, nil
	}
	return t
}

// takenOver gives a session lease to a task whose expired lease was just
// recovered; the review state stays as it is.
func takenOver(t Task, l Lease, now string) Task {
	t = touched(t, now)
	t.Assignee, t.AssigneeSessionID, t.ClaimWorktreeID = &l.Assignee, l.SessionID, l.WorktreeID
	t.LeaseID, t.LeaseExpiresAt, t.BaseCheckpoint = &l.ID, &l.ExpiresAt, stored(l.BaseCheckpoint)
	t.Status, t.Blocker = TaskClaimed, nil
	return t
}

// transferred moves the lease to the recipient of an accepted handoff;
// the status stays as it is.
func transferred(t Task, l Lease, now string) Task {
	return leased(touched(t, now), l)
}

// renewed moves the lease's expiry.
func renewed(t Task, expiresAt, now string) Task {
	t = touched(t, now)
	t.LeaseExpiresAt = &expiresAt
	return t
}

// released reopens the task and gives up its lease.
func released(t Task, clearSession bool, now string) Task {
	t = unleased(touched(t, now), clearSession)
	t.Status = TaskOpen
	return t
}

// expired records that the clock ended a session lease.
func expired(t Task, now string) Task {
	t = unleased(touched(t, now), true)
	t.Status = TaskOpen
	return t
}
