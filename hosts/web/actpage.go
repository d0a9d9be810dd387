package web

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"

	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/store"
)

// actBody is the acting page: the person's session and what it may do now.
type actBody struct {
	// Done says what the last action did ("" for none).
	Done string
	// Me is the person's session, nil before their first action here.
	Me    *store.CoordinationSession
	Actor string
	// Others are the live sessions a report can be addressed to.
	Others []store.CoordinationSession
	// Tasks are those a report can be about: every task not finished.
	Tasks []store.Task
	// Offers are pending handoffs offered to the person's session, each
	// with the task it would take over.
	Offers []offer
	// Reviews are completions awaiting review that another session
	// reported; Held are the tasks the person's session holds.
	Reviews, Held []store.Task
}

type offer struct {
	Handoff store.Handoff
	Task    store.Task
}

// doneText is what the page says after an action, by the done query.
var doneText = map[string]string{
	"posted": "Report posted", "decided": "Decision recorded", "accepted": "Completion accepted",
	"sent-back": "Changes requested; the task reopened", "took-over": "Handoff accepted; the task is yours",
	"declined": "Handoff declined", "created": "Task created", "released": "Lease released",
}

func (s *Server) actPage(r *http.Request, d *pageData) (string, error) {
	v, err := s.view(r, d)
	if err != nil {
		return "", err
	}
	me := s.act.sessionID(d.WS.ID)
	b := actBody{Actor: s.act.opts.Actor, Done: doneNotice(r.URL.Query())}
	for i, sess := range v.Sessions {
		switch {
		case sess.ID == me:
			b.Me = &v.Sessions[i]
		case sess.Status == store.SessionActive:
			b.Others = append(b.Others, sess)
		}
	}
	tasks := map[string]store.Task{}
	for _, t := range v.Tasks {
		tasks[t.ID] = t
		b.sort(t, me)
	}
	for _, h := range v.Handoffs {
		if h.Status == store.HandoffPending && me != "" && h.ToSessionID != nil && *h.ToSessionID == me {
			b.Offers = append(b.Offers, offer{Handoff: h, Task: tasks[h.TaskID]})
		}
	}
	d.Title, d.Tab, d.Now, d.Body = "Act", "act", v.Now, b
	return "act", nil
}

// doneNotice is what the page says the last action did, from the query
// the action redirected with: a known outcome, with an identifier only
// (a link cannot make the page say arbitrary text).
func doneNotice(q url.Values) string {
	text, ok := doneText[q.Get("done")]
	if !ok {
		return ""
	}
	if id := q.Get("id"); field.IsID(id) {
		text += ": " + id
	}
	return text + "."
}

// sort files task t under what the person's session me may do with it.
func (b *actBody) sort(t store.Task, me string) {
	if t.EffectiveStatus != store.TaskCompleted && t.EffectiveStatus != store.TaskAccepted {
		b.Tasks = append(b.Tasks, t)
	}
	mine := me != "" && t.AssigneeSessionID != nil && *t.AssigneeSessionID == me
	switch {
	case mine && (t.EffectiveStatus == store.TaskClaimed || t.EffectiveStatus == store.TaskBlocked):
		b.Held = append(b.Held, t)
	case t.EffectiveStatus == store.TaskReportedComplete && t.ReviewStatus == store.ReviewPending &&
		(t.ReportedBySessionID == nil || *t.ReportedBySessionID != me):
		b.Reviews = append(b.Reviews, t)
	}
}

// newFormKey makes the idempotency key one rendered form carries.
func newFormKey() string {
	b := make([]byte, 12)
	rand.Read(b)
	return "web-" + hex.EncodeToString(b)
}

// bound exposes the field table's limits to the templates (maxlength).
func bound(name string) int64 {
	f, ok := formFields[name]
	if !ok {
		return 0
	}
	return f.Spec().StatedMax()
}

var formFields = map[string]field.Field{
	"body": field.Body, "topic": field.Topic, "decision": field.Decision, "rationale": field.Rationale,
	"title": field.Title, "description": field.Description, "summary": field.Summary, "release": field.ReleaseSummary,
}
