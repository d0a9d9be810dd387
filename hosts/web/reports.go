package web

import (
	"net/http"

	"github.com/agenttool/collab/core/store"
)

// thread is one report and the reports that answer it (replies,
// corrections, supersessions, withdrawals), oldest first.
type thread struct {
	Report  store.Report
	Replies []*thread
	// Superseded marks a report another supersedes, corrects or withdraws.
	Superseded string
}

// overturned names what a reply of each relation does to its target.
var overturned = map[string]string{"supersedes": "superseded", "corrects": "corrected", "withdraws": "withdrawn"}

func (s *Server) reports(r *http.Request, d *pageData) (string, error) {
	q := store.ReportQuery{Kind: r.URL.Query().Get("kind"), ToSessionID: r.URL.Query().Get("to")}
	list, err := s.opts.Store.Reports(r.Context(), d.WS.ID, q)
	if err != nil {
		return "", err
	}
	v, err := s.view(r, d)
	if err != nil {
		return "", err
	}
	d.Title, d.Tab, d.Now = "Reports", "reports", v.Now
	d.Body = struct {
		Threads  []*thread
		Query    store.ReportQuery
		Kinds    []string
		Sessions []store.CoordinationSession
		Count    int
	}{threads(list), q, []string{"observation", "inference", "proposal", "decision"}, v.Sessions, len(list)}
	return "reports", nil
}

// threads arranges reports (oldest first) under the reports they target;
// a report whose target is absent starts a thread of its own. Threads are
// returned newest first.
func threads(list []store.Report) []*thread {
	nodes := map[string]*thread{}
	for _, r := range list {
		nodes[r.ID] = &thread{Report: r}
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
		if past, ok := overturned[r.Relation]; ok {
			parent.Superseded = past
		}
	}
	for i, j := 0, len(roots)-1; i < j; i, j = i+1, j-1 {
		roots[i], roots[j] = roots[j], roots[i]
	}
	return roots
}
