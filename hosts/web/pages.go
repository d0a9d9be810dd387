package web

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/agenttool/collab/core/anchor"
	"github.com/agenttool/collab/core/liveness"
	"github.com/agenttool/collab/core/store"
)

// columnOrder is the board's left-to-right order of effective statuses.
var columnOrder = []string{"open", "claimed", "blocked", "lease_expired", "recovery_required",
	"reported_complete", "completed", "accepted"}

// column is one board column.
type column struct {
	Status string
	Tasks  []store.Task
}

func (s *Server) home(r *http.Request, d *pageData) (string, error) {
	d.Title = "Workspaces"
	return "home", nil
}

func (s *Server) view(r *http.Request, d *pageData) (store.WorkspaceView, error) {
	return s.opts.Store.View(r.Context(), d.WS.ID)
}

func (s *Server) board(r *http.Request, d *pageData) (string, error) {
	v, err := s.view(r, d)
	if err != nil {
		return "", err
	}
	byStatus := map[string][]store.Task{}
	for _, t := range v.Tasks {
		s := string(t.EffectiveStatus)
		byStatus[s] = append(byStatus[s], t)
	}
	var cols []column
	for _, st := range columnOrder {
		if ts := byStatus[st]; len(ts) > 0 || st == "open" || st == "claimed" || st == "blocked" {
			cols = append(cols, column{Status: st, Tasks: ts})
		}
	}
	blind, err := s.blindReviews(r, d.WS.ID)
	if err != nil {
		return "", err
	}
	d.Title, d.Tab, d.Now = "Board", "board", v.Now
	d.Body = struct {
		Columns []column
		Total   int
		Blind   map[string]store.IndependentReview
	}{cols, len(v.Tasks), blind}
	return "board", nil
}

// blindReviews is each task's latest review marked independent (formed
// while its reviewer verified blind; docs/independence.md), by task id.
func (s *Server) blindReviews(r *http.Request, ws string) (map[string]store.IndependentReview, error) {
	in, err := s.opts.Store.Independence(r.Context(), ws)
	if err != nil {
		return nil, err
	}
	out := map[string]store.IndependentReview{}
	for _, rv := range in.Reviews {
		if rv.EventSequence >= out[rv.TaskID].EventSequence {
			out[rv.TaskID] = rv
		}
	}
	return out, nil
}

func (s *Server) sessions(r *http.Request, d *pageData) (string, error) {
	v, err := s.view(r, d)
	if err != nil {
		return "", err
	}
	trees := map[string]store.Worktree{}
	for _, w := range v.Worktrees {
		trees[w.ID] = w
	}
	d.Title, d.Tab, d.Now = "Sessions", "sessions", v.Now
	now, err := store.ParseTime(v.Now)
	if err != nil {
		return "", fmt.Errorf("read the view's clock: %w", err)
	}
	d.Body = struct {
		Sessions  []store.CoordinationSession
		Lives     map[string]liveness.Life
		Presence  []store.Presence
		Worktrees map[string]store.Worktree
	}{v.Sessions, liveness.All(v.Sessions, v.Hosts, v.Tasks, now, liveness.LocalProbe()), v.Presence, trees}
	return "sessions", nil
}

// decisions shows both kinds of decision: decision reports of
// credential-bound sessions, and legacy decision records.
func (s *Server) decisions(r *http.Request, d *pageData) (string, error) {
	v, err := s.view(r, d)
	if err != nil {
		return "", err
	}
	reports, err := s.opts.Store.Reports(r.Context(), d.WS.ID, store.ReportQuery{Kind: "decision", Limit: 200})
	slices.Reverse(reports)
	d.Title, d.Tab, d.Now = "Decisions", "decisions", v.Now
	d.Body = struct {
		Reports []store.Report
		Records []store.Decision
	}{reports, v.Decisions}
	return "decisions", err
}

func (s *Server) handoffs(r *http.Request, d *pageData) (string, error) {
	v, err := s.view(r, d)
	d.Title, d.Tab, d.Now, d.Body = "Handoffs", "handoffs", v.Now, v.Handoffs
	return "handoffs", err
}

func (s *Server) conflicts(r *http.Request, d *pageData) (string, error) {
	v, err := s.view(r, d)
	trees := map[string]store.Worktree{}
	for _, w := range v.Worktrees {
		trees[w.ID] = w
	}
	d.Title, d.Tab, d.Now = "Path conflicts", "conflicts", v.Now
	d.Body = struct {
		Conflicts []store.PathConflict
		Worktrees map[string]store.Worktree
	}{v.Conflicts, trees}
	return "conflicts", err
}

func (s *Server) anchor(r *http.Request, d *pageData) (string, error) {
	ws := d.WS
	head := anchor.Head{WorkspaceID: ws.ID, EpochID: ws.EpochID, Sequence: ws.EventHeadSequence, Hash: ws.EventHeadHash}
	st, err := anchor.Check(r.Context(), s.opts.AnchorLedger, head, s.opts.Store)
	d.Title, d.Tab = "Anchor", "anchor"
	st.Anchor = displayableRef(st.Anchor)
	d.Body = struct {
		Status    anchor.Status
		HasLedger bool
	}{st, st.LedgerReadable}
	return "anchor", err
}

// displayableRef returns ref with every string it copied from the ledger
// made valid UTF-8 for the page: an unpaired surrogate, which the anchor
// check keeps as WTF-8 so the tool can echo it, shows as one U+FFFD rather
// than as three ill-formed bytes.
func displayableRef(ref *anchor.Ref) *anchor.Ref {
	if ref == nil {
		return nil
	}
	out := *ref
	for _, f := range []*string{&out.HeadHash, &out.Network, &out.Status} {
		*f = strings.ToValidUTF8(*f, "\uFFFD")
	}
	for _, f := range []**string{&out.CAIP2, &out.TxHash, &out.SubmittedAt, &out.ConfirmedAt} {
		if *f != nil {
			v := strings.ToValidUTF8(**f, "\uFFFD")
			*f = &v
		}
	}
	return &out
}

func (s *Server) search(r *http.Request, d *pageData) (string, error) {
	d.Title, d.Tab = "Search", "search"
	q := SearchQuery{WorkspaceID: d.WS.ID, Text: r.URL.Query().Get("q"), Kind: r.URL.Query().Get("kind"),
		Cursor: r.URL.Query().Get("cursor")}
	body := struct {
		Query  SearchQuery
		Result SearchResult
		Err    string
	}{Query: q}
	if s.opts.Search != nil && q.Text != "" {
		res, err := s.opts.Search.Search(r.Context(), q)
		if err != nil {
			body.Err = err.Error()
		}
		body.Result = res
	}
	d.Body = body
	return "search", nil
}

// intParam reads a non-negative integer query parameter (0 when absent or bad).
func intParam(r *http.Request, name string) int64 {
	n, err := strconv.ParseInt(r.URL.Query().Get(name), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}
