package store

import "github.com/agenttool/collab/core/answer"

// The answers of the store's idempotent mutations. Each says what the
// change did, as Go values; its JSON shape (the member names below) is the
// tool result's, and package answer renders it and its receipt. A mutation
// returns answer.Of one of these: the fresh value, or on an exact retry
// the stored bytes of the first call's answer.

// TaskAnswer is {task}: what creating, claiming, renewing, progressing,
// releasing, blocking, unblocking, completing and recovering a task answer.
type TaskAnswer struct {
	Task Task `json:"task"`
}

// Single names the receipt member: the receipt stores the bare task.
func (a TaskAnswer) Single() (string, any) { return "task", a.Task }

// AttachAnswer is {task, artifact}, the task first (the reference's
// order); its receipt holds the whole answer.
type AttachAnswer struct {
	Task     Task     `json:"task"`
	Artifact Artifact `json:"artifact"`
}

// HandoffAnswer is {handoff, task}, what offering and answering a handoff
// answer; its receipt holds the whole answer.
type HandoffAnswer struct {
	Handoff Handoff `json:"handoff"`
	Task    Task    `json:"task"`
}

// ReviewAnswer is {task, review, report}, what a review answers; its
// receipt holds the whole answer.
type ReviewAnswer struct {
	Task   Task       `json:"task"`
	Review TaskReview `json:"review"`
	Report Report     `json:"report"`
}

// ReportAnswer is {report}, what appending a report answers.
type ReportAnswer struct {
	Report Report `json:"report"`
}

// Single names the receipt member: the receipt stores the bare report.
func (a ReportAnswer) Single() (string, any) { return "report", a.Report }

// DecisionAnswer is what recording a decision answers: {decision} for an
// actor label, {report} (a decision report) for a bound session. Exactly
// one of the two is set.
type DecisionAnswer struct {
	Decision *Decision `json:"decision,omitempty"`
	Report   *Report   `json:"report,omitempty"`
}

// Single names the receipt member, the one that is set.
func (a DecisionAnswer) Single() (string, any) {
	if a.Report != nil {
		return "report", a.Report
	}
	return "decision", a.Decision
}

// decisionReport is a session's decision answer: the report it posted.
func decisionReport(a ReportAnswer) DecisionAnswer { return DecisionAnswer{Report: &a.Report} }

// PresenceAnswer is {session}: a presence hint after a heartbeat or leave.
type PresenceAnswer struct {
	Session Presence `json:"session"`
}

// Single names the receipt member: the receipt stores the bare hint.
func (a PresenceAnswer) Single() (string, any) { return "session", a.Session }

// cursorAnswer is {session}, the session after a cursor reset; ResetCursor
// returns the session it reads afterwards, so only the receipt uses it.
type cursorAnswer struct {
	Session CoordinationSession `json:"session"`
}

func (a cursorAnswer) Single() (string, any) { return "session", a.Session }

var (
	_ answer.Single = TaskAnswer{}
	_ answer.Single = ReportAnswer{}
	_ answer.Single = DecisionAnswer{}
	_ answer.Single = PresenceAnswer{}
	_ answer.Single = cursorAnswer{}
)
