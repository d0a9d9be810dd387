package web

import (
	"context"
	"embed"
	"errors"
	"html/template"
	"io/fs"
	"net/http"
	"time"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/hostguard"
)

//go:embed assets templates
var files embed.FS

// Options configure a Server.
type Options struct {
	// Store is the database to show; it must have been opened read-only.
	Store *store.Store
	// Hosts decides which Host names and browser origins are answered;
	// every other request gets 403 before anything is read. The zero value
	// admits the loopback names on the port a request arrived on.
	Hosts hostguard.Policy
	// Token, when not empty, is required on every request: as a bearer
	// token, or in the cookie a one-time /?token= URL sets.
	Token string
	// Search answers the search box; nil shows the box disabled.
	Search Searcher
	// AnchorLedger is the anchor sidecar ledger path ("" = none).
	AnchorLedger string
	// Poll is how often the change watcher asks SQLite whether anything
	// was committed while a page is listening (250 ms when 0).
	Poll time.Duration
	// Now is the clock for countdowns and page tokens; nil means time.Now.
	Now func() time.Time
	// Act, when set, lets a person act from the pages (web --act); nil
	// keeps the view strictly read-only: no form is rendered and every
	// request but GET and HEAD is refused.
	Act *Acting
}

// Server serves the web view. Create it with New; it is an http.Handler.
type Server struct {
	opts  Options
	pages map[string]*template.Template
	mux   *http.ServeMux
	live  *broker
	types typeCache
	act   *acts // nil: read-only
}

// New prepares a Server; Close releases its change watcher.
func New(ctx context.Context, opts Options) (*Server, error) {
	if opts.Store == nil {
		return nil, errors.New("web: no store")
	}
	if opts.Poll <= 0 {
		opts.Poll = 250 * time.Millisecond
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	s := &Server{opts: opts, pages: pages, mux: http.NewServeMux()}
	if opts.Act != nil {
		if opts.Act.Store == nil || opts.Act.Credential == nil {
			return nil, errors.New("web: acting needs a writable store and the person's credential place")
		}
		s.act = newActs(*opts.Act)
	}
	s.live = newBroker(opts.Store, opts.Poll)
	s.routes()
	return s, nil
}

// Close stops live updates.
func (s *Server) Close() error { return s.live.close() }

func (s *Server) routes() {
	static, _ := fs.Sub(files, "assets")
	s.mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /{$}", s.page(s.home))
	s.mux.HandleFunc("GET /live", s.live.serve)
	s.mux.HandleFunc("GET /w/{ws}/{$}", s.page(s.board))
	s.mux.HandleFunc("GET /w/{ws}/sessions", s.page(s.sessions))
	s.mux.HandleFunc("GET /w/{ws}/reports", s.page(s.reports))
	s.mux.HandleFunc("GET /w/{ws}/decisions", s.page(s.decisions))
	s.mux.HandleFunc("GET /w/{ws}/handoffs", s.page(s.handoffs))
	s.mux.HandleFunc("GET /w/{ws}/conflicts", s.page(s.conflicts))
	s.mux.HandleFunc("GET /w/{ws}/timeline", s.page(s.timeline))
	s.mux.HandleFunc("GET /w/{ws}/anchor", s.page(s.anchor))
	s.mux.HandleFunc("GET /w/{ws}/search", s.page(s.search))
	s.mux.HandleFunc("GET /w/{ws}/verify", s.page(s.verifyPage))
	s.mux.HandleFunc("GET /w/{ws}/verify/stream", s.verifyStream)
	if s.act != nil {
		s.mux.HandleFunc("GET /w/{ws}/act", s.page(s.actPage))
		s.mux.HandleFunc("POST /w/{ws}/act/{action}", s.serveAct)
	}
}

// ServeHTTP applies the security headers, the Host and Origin check and
// the token check, refuses anything but a read when the view is
// read-only, then routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secureHeaders(w.Header(), s.act != nil)
	if err := s.opts.Hosts.Check(r); err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	if !s.authorised(w, r) {
		return
	}
	if s.act == nil && r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "This view is read-only: nothing here writes to the journal. Start it with `collab web --act` to act from the page.", http.StatusMethodNotAllowed)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// secureHeaders forbid inline script, framing, MIME sniffing and leaking
// the URL (which may carry a one-time token) to other sites. An acting
// view sends its own address to itself (same-origin): a browser sends
// "Origin: null" on a form post under no-referrer, and the acting forms
// must show where they come from.
func secureHeaders(h http.Header, acting bool) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "+
		"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	if acting {
		h.Set("Referrer-Policy", "same-origin")
	} else {
		h.Set("Referrer-Policy", "no-referrer")
	}
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
}
