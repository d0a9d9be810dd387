package web

import (
	"bytes"
	"errors"
	"log"
	"net/http"
	"net/url"

	"github.com/agenttool/collab/core/store"
)

// maxForm bounds a posted form: the longest field (a task description,
// 8000 characters of up to four bytes) with room for the rest.
const maxForm = 64 << 10

// refusal is the body of the page that says an action was not done.
type refusal struct {
	What, Fix string
	// Back is the acting page to return to ("" when the workspace is unknown).
	Back string
}

// serveAct serves one form post of the acting page: the same-origin evidence
// and the page token first, then the form against the field table, then
// the store as the person's session. Whatever refuses, nothing is written
// and the answer is a page that says why; a done action redirects to the
// acting page, which says what was done.
func (s *Server) serveAct(w http.ResponseWriter, r *http.Request) {
	d := &pageData{Now: store.FormatTime(s.opts.Now()), Searchable: s.opts.Search != nil, Acting: true}
	if name, _, err := s.prepare(r, d); err != nil || name != "" {
		s.refuse(w, http.StatusNotFound, d, actionError{what: "there is no such workspace here, or the database needs migration", fix: "open the view's home page"})
		return
	}
	back := "/w/" + url.PathEscape(d.WS.ID) + "/act"
	if why := sameOrigin(r); why != "" {
		s.refuse(w, http.StatusForbidden, d, actionError{what: "refused: " + why + "; nothing was written",
			fix: "act from this view's own pages, opened in your browser from its own address", code: "cross_site"})
		return
	}
	if peer := s.act.opts.Peer; peer != nil {
		if err := peer(r); err != nil {
			s.refuse(w, http.StatusForbidden, d, actionError{what: "refused: " + err.Error() + "; nothing was written",
				fix: "act from a browser of the user who started collab web --act", code: "foreign_user"})
			return
		}
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		s.refuse(w, http.StatusBadRequest, d, actionError{what: "the form could not be read (over 64 KB, or malformed); nothing was written", fix: "shorten the text and send it again"})
		return
	}
	if !s.act.tokenValid(r.PostForm.Get("csrf"), r, d.WS.ID, s.opts.Now()) {
		s.refuse(w, http.StatusForbidden, d, actionError{what: "refused: the form's page token is missing, forged or expired; nothing was written",
			fix: "reload the page (a token lasts 12 hours and ends when the web command restarts) and send the form again", code: "bad_page_token"})
		return
	}
	do, ok := actions[r.PathValue("action")]
	if !ok {
		s.refuse(w, http.StatusNotFound, d, actionError{what: "there is no such action", fix: "use the forms of the Act page"})
		return
	}
	q, err := do(r.Context(), s.act, *d.WS, &formInput{v: r.PostForm})
	if err != nil {
		status := http.StatusConflict
		var ae actionError
		if errors.As(err, &ae) && ae.code == "invalid_input" {
			status = http.StatusBadRequest
		}
		s.refuse(w, status, d, err)
		return
	}
	http.Redirect(w, r, back+"?"+q.Encode(), http.StatusSeeOther)
}

// refuse renders the page saying an action was not done.
func (s *Server) refuse(w http.ResponseWriter, status int, d *pageData, err error) {
	body := refusal{What: err.Error(), Fix: "see docs/errors.md"}
	var ae actionError
	if errors.As(err, &ae) {
		body.What, body.Fix = ae.what, ae.fix
	}
	if d.WS != nil {
		body.Back = "/w/" + url.PathEscape(d.WS.ID) + "/act"
	}
	d.Title, d.Tab, d.Body = "Not done", "act", body
	var buf bytes.Buffer
	if err := s.pages["refused"].Execute(&buf, d); err != nil {
		log.Printf("web: render refusal: %v", err)
		http.Error(w, body.What, status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	buf.WriteTo(w)
}
