package store

import (
	"regexp"
	"time"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
)

// The kinds of subject an independence claim can name.
const (
	// ClaimOnTask is a task: its completion reports, progress notes,
	// reviews and artifacts.
	ClaimOnTask = "task"
	// ClaimOnReport is a report thread: the report and every report
	// related to it through target_report_id, either way.
	ClaimOnReport = "report"
	// ClaimOnTopic is a free label: every report whose body carries the
	// tag #label.
	ClaimOnTopic = "topic"
)

// How a claim ended.
const (
	// ClaimOpen is a claim whose material is still withheld.
	ClaimOpen = "open"
	// ClaimReleasedByFinding ended when the claimant posted its own
	// report on the subject.
	ClaimReleasedByFinding = "released_by_finding"
	// ClaimReleased ended by the claimant's explicit release.
	ClaimReleased = "released"
	// ClaimExpired ended when its time ran out, nobody having released it.
	ClaimExpired = "expired"
)

// IndependenceSubject is what a claim covers.
type IndependenceSubject struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

// String is the subject as people read it: "task:T", "report:R", "topic:L".
func (s IndependenceSubject) String() string { return s.Kind + ":" + s.ID }

// IndependenceClaim is one session's claim to work on a subject without
// seeing other sessions' material on it. Everything but Status and the
// release fields is what its independence.claimed event journaled; Status
// is derived at read time, so a claim past ExpiresAt reads as expired
// without any event.
type IndependenceClaim struct {
	ID              string              `json:"id"`
	WorkspaceID     string              `json:"workspace_id"`
	Subject         IndependenceSubject `json:"subject"`
	SessionID       string              `json:"session_id"`
	Actor           string              `json:"actor"`
	Note            *string             `json:"note"`
	ClaimedAt       string              `json:"claimed_at"`
	ExpiresAt       string              `json:"expires_at"`
	Status          string              `json:"status"`
	ReleasedAt      *string             `json:"released_at"`
	ReleaseNote     *string             `json:"release_note"`
	FindingReportID *string             `json:"finding_report_id"`
	EventSequence   int64               `json:"event_sequence"`
}

// openAt reports whether the claim still withholds at now (an ISO time).
func (c IndependenceClaim) openAt(now string) bool {
	return c.Status == ClaimOpen && now < c.ExpiresAt
}

// settledAt is the claim with its status as of now.
func (c IndependenceClaim) settledAt(now string) IndependenceClaim {
	if c.Status == ClaimOpen && now >= c.ExpiresAt {
		c.Status = ClaimExpired
	}
	return c
}

// IndependentReview records that a review was formed blind: its reviewer
// held a claim on the task that ended with the reviewer's own finding
// (or was still open) when it reviewed.
type IndependentReview struct {
	TaskID            string `json:"task_id"`
	ReviewID          string `json:"review_id"`
	ReviewReportID    string `json:"review_report_id"`
	ClaimID           string `json:"claim_id"`
	ReviewerSessionID string `json:"reviewer_session_id"`
	ReviewerActor     string `json:"reviewer_actor"`
	Outcome           string `json:"outcome"`
	RecordedAt        string `json:"recorded_at"`
	EventSequence     int64  `json:"event_sequence"`
}

// ClaimIndependenceInput is a claim as the claimant asks for it: exactly
// one of TaskID, ReportID and Topic; TTLSeconds nil for the default day.
type ClaimIndependenceInput struct {
	TaskID     *string
	ReportID   *string
	Topic      *string
	TTLSeconds *int64
	Note       *string
}

// topicLabel is a topic's alphabet; its length is field.ClaimTopic's.
var topicLabel = regexp.MustCompile(field.ClaimTopic.Spec().Pattern)

// subject checks that exactly one subject is named and that a topic is a
// label; whether a task or report exists is checked in the transaction.
func (in ClaimIndependenceInput) subject() (IndependenceSubject, error) {
	var out []IndependenceSubject
	for _, c := range []struct {
		kind string
		v    *string
	}{{ClaimOnTask, in.TaskID}, {ClaimOnReport, in.ReportID}, {ClaimOnTopic, in.Topic}} {
		if c.v != nil {
			out = append(out, IndependenceSubject{Kind: c.kind, ID: *c.v})
		}
	}
	if len(out) != 1 || out[0].ID == "" {
		return IndependenceSubject{}, collaberr.New(collaberr.InvalidIndependenceSubject,
			"Name exactly one subject: task_id, report_id or topic")
	}
	if out[0].Kind == ClaimOnTopic && (!topicLabel.MatchString(out[0].ID) || int64(len(out[0].ID)) > field.ClaimTopic.Spec().Max) {
		return IndependenceSubject{}, collaberr.New(collaberr.InvalidIndependenceSubject,
			"A topic is 1 to 64 letters, digits, dots, dashes or underscores")
	}
	return out[0], nil
}

// duration is the claim's lease, checked against its bounds.
func (in ClaimIndependenceInput) duration() (time.Duration, error) {
	spec := field.ClaimTTL.Spec()
	secs := spec.Default
	if in.TTLSeconds != nil {
		secs = *in.TTLSeconds
	}
	if !spec.Admits(secs) {
		return 0, collaberr.Newf(collaberr.InvalidIndependenceDuration,
			"ttl_seconds must be a whole number from %d to %d", spec.Min, spec.Max)
	}
	return time.Duration(secs) * time.Second, nil
}
