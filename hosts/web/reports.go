package web

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/agenttool/collab/core/liveness"
	"github.com/agenttool/collab/core/store"
)

// thread is one report and the reports that answer it (replies,
// corrections, supersessions, withdrawals), oldest first.
type thread struct {
	Report  store.Report
	Replies []*thread
	// Superseded says how a report is out of force ("superseded",
	// "corrected", "withdrawn"), "" while it is in force.
	Superseded string
	// Delivery holds the receipts of a report addressed to a session;
	// nil for one addressed to no one.
	Delivery *store.DeliveryReceipts
	// ToActor is the label of the session the report is addressed to,
	// "" when it is addressed to no one or to a session not known here.
	ToActor string
}

// pastTense names, for a page, what a report of an overturning relation
// did to its target; which relations overturn, and when, is the store's
// rule (Store.Overturned).
var pastTense = map[string]string{"supersedes": "superseded", "corrects": "corrected", "withdraws": "withdrawn"}

func (s *Server) reports(r *http.Request, d *pageData) (string, error) {
	v, err := s.view(r, d)
	if err != nil {
		return "", err
	}
	q := store.ReportQuery{Kind: r.URL.Query().Get("kind")}
	// to names a session as a person would (a label, a short id or an id),
	// a label naming only the live sessions bearing it, as the people's
	// commands read it (an ended one's host is gone: core/liveness); a
	// name that picks no single session lists nothing and says why.
	var refusal string
	if to := r.URL.Query().Get("to"); to != "" {
		now, err := store.ParseTime(v.Now)
		if err != nil {
			return "", fmt.Errorf("read the view's clock: %w", err)
		}
		lives := liveness.All(v.Sessions, v.Hosts, v.Tasks, now, liveness.LocalProbe())
		sess, err := store.ChooseLiveSession(v.Sessions, to, func(s store.CoordinationSession) bool {
			return liveness.Live(s, lives)
		})
		var un *store.UnresolvedSession
		switch {
		case errors.As(err, &un):
			refusal = un.Error() + "; " + un.Hint()
		case err != nil:
			return "", err
		default:
			q.ToSessionID = sess.ID
		}
	}
	var list []store.Report
	if refusal == "" {
		if list, err = s.opts.Store.Reports(r.Context(), d.WS.ID, q); err != nil {
			return "", err
		}
	}
	overturned, err := s.opts.Store.Overturned(r.Context(), d.WS.ID)
	if err != nil {
		return "", err
	}
	ts := threads(list, overturned)
	labelThreads(ts, v.Sessions)
	if err := s.addDeliveries(r, d.WS.ID, ts); err != nil {
		return "", err
	}
	d.Title, d.Tab, d.Now = "Reports", "reports", v.Now
	d.Body = struct {
		Threads  []*thread
		Query    store.ReportQuery
		Refusal  string
		Kinds    []string
		Sessions []store.CoordinationSession
		Count    int
	}{ts, q, refusal, []string{"observation", "inference", "proposal", "decision"}, v.Sessions, len(list)}
	return "reports", nil
}

// labelThreads names the session each report is addressed to by its
// actor's label.
func labelThreads(ts []*thread, sessions []store.CoordinationSession) {
	label := make(map[string]string, len(sessions))
	for _, s := range sessions {
		label[s.ID] = s.Actor
	}
	for _, t := range ts {
		if t.Report.ToSessionID != nil {
			t.ToActor = label[*t.Report.ToSessionID]
		}
		labelThreads(t.Replies, sessions)
	}
}

// addDeliveries attaches to every addressed report in the threads its
// delivery receipts, read in one snapshot.
func (s *Server) addDeliveries(r *http.Request, workspaceID string, roots []*thread) error {
	byID := map[string]*thread{}
	var subjects []store.Subject
	var walk func([]*thread)
	walk = func(ts []*thread) {
		for _, t := range ts {
			if t.Report.ToSessionID != nil {
				byID[t.Report.ID] = t
				subjects = append(subjects, store.Subject{Kind: store.SubjectReport, ID: t.Report.ID})
			}
			walk(t.Replies)
		}
	}
	walk(roots)
	if len(subjects) == 0 {
		return nil
	}
	all, err := s.opts.Store.DeliveryReceiptsOf(r.Context(), workspaceID, subjects)
	if err != nil {
		return err
	}
	for i := range all {
		byID[all[i].ID].Delivery = &all[i]
	}
	return nil
}

// threads arranges reports (oldest first) under the reports they target;
// a report whose target is absent starts a thread of its own, and a report
// in overturned (Store.Overturned) is marked out of force. Threads are
// returned newest first.
func threads(list []store.Report, overturned map[string]string) []*thread {
	nodes := map[string]*thread{}
	for _, r := range list {
		nodes[r.ID] = &thread{Report: r, Superseded: pastTense[overturned[r.ID]]}
	}
	var roots []*thread
	for _, r := range list {
		n := nodes[r.ID]
		parent := (*thread)(nil)
		if r.TargetReportID != nil {
			parent = nodes[*r.TargetReportID]
		}
		if parent == nil {
			roots = append(roots, n)
			continue
		}
		parent.Replies = append(parent.Replies, n)
	}
	for i, j := 0, len(roots)-1; i < j; i, j = i+1, j-1 {
		roots[i], roots[j] = roots[j], roots[i]
	}
	return roots
}
