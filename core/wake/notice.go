package wake

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// Kind names why an event concerns the viewer.
type Kind string

// The kinds of notice, in the order a summary line lists them.
const (
	HandoffOffered   Kind = "handoff_offered"
	ChangesRequested Kind = "changes_requested"
	ReportAddressed  Kind = "report_addressed"
	HandoffAnswered  Kind = "handoff_answered"
	WorkAccepted     Kind = "work_accepted"
	ClaimLost        Kind = "claim_lost"
	LeaseExpiring    Kind = "lease_expiring"
)

// Kinds lists every kind in display order.
var Kinds = []Kind{HandoffOffered, ChangesRequested, ReportAddressed, HandoffAnswered, WorkAccepted, ClaimLost, LeaseExpiring}

// Notice is one thing that concerns the viewer. Sequence is 0 for a lease
// about to expire, which is a state, not an event.
type Notice struct {
	Kind     Kind   `json:"kind"`
	Sequence int64  `json:"sequence"`
	TaskID   string `json:"task_id,omitempty"`
	From     string `json:"from,omitempty"`
	Text     string `json:"text"`
	// Subject is the handoff or report the notice announces, for a
	// handoff offered or a report addressed to the viewer; nil for every
	// other kind. Announcement receipts are recorded against it
	// (store.RecordAnnouncement); it is not part of any rendering.
	Subject *store.Subject `json:"-"`
}

// Subjects lists the subjects of the notices that announce one (see
// Notice.Subject), each once, in notice order.
func Subjects(ns []Notice) []store.Subject {
	var out []store.Subject
	seen := map[store.Subject]bool{}
	for _, n := range ns {
		if n.Subject != nil && !seen[*n.Subject] {
			seen[*n.Subject] = true
			out = append(out, *n.Subject)
		}
	}
	return out
}

// viewer is who the notices are for, with what it owns.
type viewer struct {
	sessionID string
	actor     string
	tasks     map[string]store.WakeTask
	offers    map[string]bool
	reviews   map[string]bool // report ids that a review event also announces
}

func newViewer(s store.WakeSnapshot) viewer {
	v := viewer{sessionID: s.SessionID, actor: s.Actor, tasks: map[string]store.WakeTask{}, offers: map[string]bool{}, reviews: map[string]bool{}}
	for _, t := range s.Tasks {
		v.tasks[t.ID] = t
	}
	for _, id := range s.OwnOffers {
		v.offers[id] = true
	}
	for _, e := range s.Candidates {
		if e.Type == "task.changes_requested" || e.Type == "task.accepted" {
			var p struct {
				ReportID string `json:"review_report_id"`
			}
			if json.Unmarshal(e.PayloadJSON, &p) == nil && p.ReportID != "" {
				v.reviews[p.ReportID] = true
			}
		}
	}
	return v
}

// own reports whether the viewer wrote the event itself.
func (v viewer) own(e journal.Event) bool {
	if v.sessionID != "" {
		return e.SessionID != nil && *e.SessionID == v.sessionID
	}
	return e.Actor == v.actor
}

// payload is the union of the payload members the rules read.
type payload struct {
	Handoff *handoffPayload `json:"handoff"`
	Offer   *handoffPayload `json:"offer"`
	TaskID  *string         `json:"task_id"`
	To      *string         `json:"to_session_id"`
	Kind    string          `json:"kind"`
	Body    string          `json:"body"`
	Summary string          `json:"summary"`
	Prior   map[string]any  `json:"prior_lease"`
}

type handoffPayload struct {
	TaskID    string  `json:"task_id"`
	ToActor   string  `json:"to_actor"`
	ToSession *string `json:"to_session_id"`
	Summary   string  `json:"summary"`
}

// relevant decides whether e concerns v and, if so, describes it.
func (v viewer) relevant(e journal.Event) (Notice, bool) {
	if v.own(e) {
		return Notice{}, false
	}
	var p payload
	if err := json.Unmarshal(e.PayloadJSON, &p); err != nil {
		return Notice{}, false
	}
	n := Notice{Sequence: e.Sequence, From: e.Actor}
	switch e.Type {
	case "handoff.offered":
		h := p.Handoff
		if h == nil {
			h = p.Offer
		}
		if h == nil || !v.addressed(h.ToSession, h.ToActor) {
			return n, false
		}
		n.Kind, n.TaskID = HandoffOffered, h.TaskID
		n.Subject = &store.Subject{Kind: store.SubjectHandoff, ID: e.EntityID}
		n.Text = fmt.Sprintf("handoff of task %s offered to you by %s: %s", h.TaskID, e.Actor, clip(h.Summary))
	case "handoff.accepted", "handoff.declined", "handoff.expired":
		if !v.offers[e.EntityID] {
			return n, false
		}
		n.Kind, n.TaskID = HandoffAnswered, deref(p.TaskID)
		n.Text = fmt.Sprintf("your handoff %s was %s by %s", e.EntityID, strings.TrimPrefix(e.Type, "handoff."), e.Actor)
	case "report.posted":
		if p.To == nil || *p.To != v.sessionID || v.sessionID == "" || v.reviews[e.EntityID] {
			return n, false
		}
		n.Kind, n.TaskID = ReportAddressed, deref(p.TaskID)
		n.Subject = &store.Subject{Kind: store.SubjectReport, ID: e.EntityID}
		n.Text = fmt.Sprintf("%s report to you from %s: %s", p.Kind, e.Actor, clip(p.Body))
	case "task.changes_requested", "task.accepted":
		if _, mine := v.tasks[e.EntityID]; !mine {
			return n, false
		}
		n.Kind, n.TaskID = WorkAccepted, e.EntityID
		n.Text = fmt.Sprintf("task %s accepted by %s", e.EntityID, e.Actor)
		if e.Type == "task.changes_requested" {
			n.Kind = ChangesRequested
			n.Text = fmt.Sprintf("review of task %s by %s requests changes: %s", e.EntityID, e.Actor, clip(p.Summary))
		}
	case "task.recovered", "task.claim_expired":
		if !v.heldBefore(p.Prior, e.EntityID) {
			return n, false
		}
		n.Kind, n.TaskID = ClaimLost, e.EntityID
		n.Text = fmt.Sprintf("your claim on task %s ended (%s by %s)", e.EntityID, strings.TrimPrefix(e.Type, "task."), e.Actor)
	default:
		return n, false
	}
	return n, true
}

// addressed reports whether an offer names the viewer: by session when the
// offer has one, else by actor label.
func (v viewer) addressed(toSession *string, toActor string) bool {
	if toSession != nil {
		return v.sessionID != "" && *toSession == v.sessionID
	}
	return v.sessionID == "" && toActor == v.actor
}

// heldBefore reports whether the viewer held the task's lease the event
// ended: the prior lease names it, or (legacy events carry no prior lease)
// the task is still listed as the viewer's.
func (v viewer) heldBefore(prior map[string]any, taskID string) bool {
	for _, key := range []string{"assignee_session_id", "session_id"} {
		if s, ok := prior[key].(string); ok && v.sessionID != "" {
			return s == v.sessionID
		}
	}
	if s, ok := prior["assignee"].(string); ok && v.sessionID == "" {
		return s == v.actor
	}
	_, mine := v.tasks[taskID]
	return mine
}

// clip keeps a free-text field to one short line, redacting secrets
// first so that a cut never leaves part of a token behind.
func clip(s string) string {
	s = strings.Join(strings.Fields(Redact(s)), " ")
	if r := []rune(s); len(r) > 80 {
		return string(r[:79]) + "…"
	}
	return s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
