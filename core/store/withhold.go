package store

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/journal"
)

// Withholding is the one rule every read path of a claimant applies: while
// a session's independence claim is open, other sessions' material on the
// claim's subject shows that it exists and is withheld, never its text or
// evidence. The zero value withholds nothing, and a session without an
// open claim gets it, so its answers are byte for byte what they were.
type Withholding struct {
	workspaceID string
	viewer      string
	claims      []IndependenceClaim
	// reports maps the id of every report a report or topic claim covers
	// to that claim; task claims are matched by task id.
	reports map[string]IndependenceClaim
}

// Active reports whether anything is withheld.
func (w Withholding) Active() bool { return len(w.claims) > 0 }

// Claims are the viewer's open claims.
func (w Withholding) Claims() []IndependenceClaim { return w.claims }

// WithholdingFor is the rule for the session of cred at this moment: its
// open claims in its workspace. A caller with no session (a legacy label,
// a person reading the journal) gets the zero value.
func (s *Store) WithholdingFor(ctx context.Context, cred Credential) (Withholding, error) {
	var out Withholding
	err := s.readTx(ctx, func(tx Tx) error {
		sess, found, err := tx.Session(ctx, cred.SessionID)
		if err != nil || !found {
			return err
		}
		out, err = s.withholdingOf(ctx, tx, sess)
		return err
	})
	return out, err
}

// withholdingOf builds the rule for sess inside a transaction.
func (s *Store) withholdingOf(ctx context.Context, tx Tx, sess CoordinationSession) (Withholding, error) {
	fold, err := s.readIndependence(ctx, tx, sess.WorkspaceID)
	if err != nil {
		return Withholding{}, err
	}
	now := s.nowISO()
	open := fold.openClaims(sess.ID, now)
	if len(open) == 0 {
		return Withholding{}, nil
	}
	return s.buildWithholding(ctx, tx, sess.WorkspaceID, sess.ID, open, now)
}

// buildWithholding resolves report and topic claims to the reports they
// cover: a thread is every report linked to the claimed one through
// target_report_id, in either direction; a topic is every report whose
// body carries #label.
func (s *Store) buildWithholding(ctx context.Context, tx Tx, workspaceID, viewer string, open []IndependenceClaim, now string) (Withholding, error) {
	w := Withholding{workspaceID: workspaceID, viewer: viewer, claims: open, reports: map[string]IndependenceClaim{}}
	needReports := false
	for _, c := range open {
		needReports = needReports || c.Subject.Kind != ClaimOnTask
	}
	if !needReports {
		return w, nil
	}
	reports, err := queryReports(ctx, tx, workspaceID, ReportFilter{})
	if err != nil {
		return w, err
	}
	for _, c := range open {
		switch c.Subject.Kind {
		case ClaimOnReport:
			for id := range thread(reports, c.Subject.ID) {
				w.reports[id] = c
			}
		case ClaimOnTopic:
			for i := range reports {
				if carriesTopic(reports[i].Body, c.Subject.ID) {
					w.reports[reports[i].ID] = c
				}
			}
		}
	}
	return w, nil
}

// thread is the set of reports connected to root through target links.
func thread(reports []Report, root string) map[string]bool {
	in := map[string]bool{root: true}
	for grew := true; grew; {
		grew = false
		for i := range reports {
			r := &reports[i]
			if r.TargetReportID == nil {
				continue
			}
			if in[r.ID] != in[*r.TargetReportID] {
				in[r.ID], in[*r.TargetReportID], grew = true, true, true
			}
		}
	}
	return in
}

// carriesTopic reports whether body holds the tag #label as a word.
func carriesTopic(body, label string) bool {
	tag := "#" + label
	for rest := body; ; {
		i := strings.Index(rest, tag)
		if i < 0 {
			return false
		}
		end := i + len(tag)
		if end == len(rest) || !topicLabel.MatchString(rest[end:end+1]) {
			return true
		}
		rest = rest[end:]
	}
}

// covering lists the viewer's open claims whose subject r is on, whoever
// wrote it.
func (w Withholding) covering(r *Report) []IndependenceClaim {
	var out []IndependenceClaim
	for _, c := range w.claims {
		if w.covers(c, r.ID, r.TaskID, r.Body) {
			out = append(out, c)
		}
	}
	return out
}

func (w Withholding) covers(c IndependenceClaim, reportID string, taskID *string, body string) bool {
	switch c.Subject.Kind {
	case ClaimOnTask:
		return taskID != nil && *taskID == c.Subject.ID
	case ClaimOnReport:
		got, ok := w.reports[reportID]
		return ok && got.ID == c.ID
	default:
		if got, ok := w.reports[reportID]; ok && got.ID == c.ID {
			return true
		}
		return body != "" && carriesTopic(body, c.Subject.ID)
	}
}

// reportClaim is the claim that withholds r from the viewer, if any: r
// is another session's (or a legacy writer's) and on an open subject.
func (w Withholding) reportClaim(r *Report) (IndependenceClaim, bool) {
	if !w.Active() || r.WorkspaceID != w.workspaceID || (r.FromSessionID != nil && *r.FromSessionID == w.viewer) {
		return IndependenceClaim{}, false
	}
	cs := w.covering(r)
	if len(cs) == 0 {
		return IndependenceClaim{}, false
	}
	return cs[0], true
}

// Withheld says which claim withholds the material of a report, event or
// search hit of a workspace, written by session (nil: no session) about
// task (nil: none) with entity id and text, if any. Search uses it for its
// hits.
func (w Withholding) Withheld(workspaceID string, session, task *string, entityID, text string) (IndependenceClaim, bool) {
	r := Report{ID: entityID, WorkspaceID: workspaceID, FromSessionID: session, TaskID: task, Body: text}
	return w.reportClaim(&r)
}

// withheldText is what stands in for withheld text.
func withheldText(c IndependenceClaim, held bool) string {
	what := "withheld"
	if held {
		what = "held"
	}
	return "[" + what + ": your independence claim " + c.ID + " on " + c.Subject.String() +
		" is open until " + c.ExpiresAt + "; post your own finding on it (or release the claim) to read this]"
}

// Report returns r as the viewer may see it: unchanged, or with its body,
// evidence, confidence and their bases replaced when a claim withholds
// it. A report addressed to the viewer is held: the text says so.
func (w Withholding) Report(r Report) Report {
	c, ok := w.reportClaim(&r)
	if !ok {
		return r
	}
	held := r.ToSessionID != nil && *r.ToSessionID == w.viewer
	r.Body, r.EvidenceRefs, r.Confidence = withheldText(c, held), []string{}, "unknown"
	r.ConfidenceBasis, r.Limits, r.AuthorityBasis = nil, nil, nil
	return r
}

// Reports applies Report to each report, in place, and returns them.
func (w Withholding) Reports(rs []Report) []Report {
	if !w.Active() {
		return rs
	}
	for i := range rs {
		rs[i] = w.Report(rs[i])
	}
	return rs
}

// contentKinds are the events whose payload holds a task's completion,
// progress, review or evidence.
var contentKinds = map[journal.Kind]bool{
	journal.KindTaskProgressed: true, journal.KindTaskCompleted: true, journal.KindTaskReportedComplete: true,
	journal.KindTaskAccepted: true, journal.KindTaskChangesRequested: true, journal.KindArtifactAttached: true,
	journal.KindReportPosted: true,
}

// eventSubject is what an event's payload says it is about.
type eventSubject struct {
	TaskID      *string `json:"task_id"`
	ToSessionID *string `json:"to_session_id"`
	Body        string  `json:"body"`
	Artifact    *struct {
		TaskID *string `json:"task_id"`
	} `json:"artifact"`
}

// Event returns e as the viewer may see it. A withheld event keeps every
// column (its hash included) and the members of its payload that say what
// it is about (task, recipient, kind, relation, target, versions), so
// notices still announce it; every other member (body, summary, message,
// evidence, checkpoint, confidence and their bases, an artifact's
// location) is replaced, and a "withheld" member names the claim.
func (w Withholding) Event(e journal.Event) journal.Event {
	if !w.Active() || !contentKinds[journal.Kind(e.Type)] {
		return e
	}
	var p eventSubject
	if json.Unmarshal(e.PayloadJSON, &p) != nil {
		return e
	}
	task := p.TaskID
	switch {
	case p.Artifact != nil:
		task = p.Artifact.TaskID
	case journal.Kind(e.Type) != journal.KindReportPosted:
		id := e.EntityID
		task = &id
	}
	c, ok := w.Withheld(e.WorkspaceID, e.SessionID, task, e.EntityID, p.Body)
	if !ok {
		return e
	}
	held := p.ToSessionID != nil && *p.ToSessionID == w.viewer
	if b, err := withheldPayload(e.PayloadJSON, c, held); err == nil {
		e.PayloadJSON = b
	}
	return e
}

// structural are the payload members a withheld event keeps: they say
// what the event is about, never what its author found.
var structural = map[string]bool{
	"task_id": true, "to_session_id": true, "kind": true, "relation": true, "target_report_id": true,
	"completion_report_id": true, "completion_policy": true, "review_status": true, "review_generation": true,
	"version": true, "review_id": true, "review_report_id": true, "outcome": true, "authority_scope": true,
	"authority_boundary": true, "id": true, "attached_by": true, "attached_at": true, "attached_by_session_id": true,
}

// withheldPayload replaces every member of a payload that is not
// structural: text becomes the withheld notice, lists become empty,
// objects are withheld member by member, anything else becomes null.
func withheldPayload(raw []byte, c IndependenceClaim, held bool) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	out := withheldMembers(m, withheldText(c, held))
	out["withheld"] = map[string]any{"claim_id": c.ID, "subject": c.Subject.String(), "until": c.ExpiresAt, "held": held}
	return canon.Marshal(out)
}

func withheldMembers(m map[string]any, text string) map[string]any {
	out := make(map[string]any, len(m)+1)
	for k, v := range m {
		if structural[k] {
			out[k] = v
			continue
		}
		switch v := v.(type) {
		case string:
			out[k] = text
		case []any:
			out[k] = []any{}
		case map[string]any:
			out[k] = withheldMembers(v, text)
		default:
			out[k] = nil
		}
	}
	return out
}

// Events applies Event to each event, in place, and returns them.
func (w Withholding) Events(es []journal.Event) []journal.Event {
	if !w.Active() {
		return es
	}
	for i := range es {
		es[i] = w.Event(es[i])
	}
	return es
}

// Task returns t as the viewer may see it: another session's progress or
// completion summary and its result checkpoint are withheld while a claim
// on the task is open.
func (w Withholding) Task(t Task) Task {
	if !w.Active() || w.ownTask(&t) {
		return t
	}
	id := t.ID
	c, ok := w.Withheld(t.WorkspaceID, nil, &id, "", "")
	if !ok {
		return t
	}
	if t.LatestProgress != nil {
		text := withheldText(c, false)
		t.LatestProgress = &text
	}
	if len(t.ResultCheckpoint) > 0 {
		t.ResultCheckpoint = json.RawMessage("null")
	}
	return t
}

// ownTask is a task whose progress and completion are the viewer's own.
func (w Withholding) ownTask(t *Task) bool {
	mine := func(p *string) bool { return p != nil && *p == w.viewer }
	return mine(t.AssigneeSessionID) || mine(t.ReportedBySessionID)
}

// Tasks applies Task to each task, in place, and returns them.
func (w Withholding) Tasks(ts []Task) []Task {
	if !w.Active() {
		return ts
	}
	for i := range ts {
		ts[i] = w.Task(ts[i])
	}
	return ts
}

// TaskWithArtifacts applies Task to the task and withholds the location
// and label of every artifact another session attached.
func (w Withholding) TaskWithArtifacts(t TaskWithArtifacts) TaskWithArtifacts {
	if !w.Active() {
		return t
	}
	t.Task = w.Task(t.Task)
	id := t.ID
	arts := make([]Artifact, len(t.Artifacts))
	for i, a := range t.Artifacts {
		if c, ok := w.Withheld(t.WorkspaceID, a.AttachedBySessionID, &id, a.ID, ""); ok {
			a.URI, a.Label, a.SHA256, a.MediaType = "withheld:"+c.ID, nil, nil, nil
		}
		arts[i] = a
	}
	t.Artifacts = arts
	return t
}

// Next applies the rule to everything collab_next shows: the event page,
// the routed reports and the tasks of the projections.
func (w Withholding) Next(n Next) Next {
	if !w.Active() {
		return n
	}
	n.Events = w.Page(n.Events)
	n.Reports = w.Reports(n.Reports)
	n.OwnClaims, n.ReadyTasks = w.Tasks(n.OwnClaims), w.Tasks(n.ReadyTasks)
	if len(n.ClaimableTasks) > 0 && len(n.ReadyTasks) > 0 && &n.ClaimableTasks[0] != &n.ReadyTasks[0] {
		n.ClaimableTasks = w.Tasks(n.ClaimableTasks)
	}
	return n
}

// Page applies Event to every event of a journal page, in place.
func (w Withholding) Page(p JournalPage) JournalPage {
	if !w.Active() {
		return p
	}
	for i := range p.Events {
		p.Events[i].Event = w.Event(p.Events[i].Event)
	}
	return p
}

// IsMaterial reports whether events of this type carry material an
// independence claim withholds: reports, progress notes, completions,
// reviews and artifacts.
func IsMaterial(eventType string) bool { return contentKinds[journal.Kind(eventType)] }
