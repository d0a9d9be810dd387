package web

import (
	"bytes"
	"fmt"
	"html/template"
	"io/fs"
	"log"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// pageData is what every page template receives.
type pageData struct {
	Title      string
	Workspaces []store.Workspace
	WS         *store.Workspace
	Tab        string
	Now        string
	Searchable bool
	// Acting is set when the view lets the person act (web --act); CSRF
	// is then this page's token for its forms.
	Acting bool
	CSRF   string
	Body   any
}

// handler builds one page: the template's name and its data.
type handler func(r *http.Request, d *pageData) (string, error)

// notFound is an error that renders as a 404 page.
type notFound string

func (e notFound) Error() string { return string(e) }

func parsePages() (map[string]*template.Template, error) {
	names, err := fs.Glob(files, "templates/*.html")
	if err != nil {
		return nil, err
	}
	pages := map[string]*template.Template{}
	for _, n := range names {
		base := path.Base(n)
		if base == "layout.html" {
			continue
		}
		t, err := template.New("layout.html").Funcs(funcs).ParseFS(files, "templates/layout.html", n)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", base, err)
		}
		pages[strings.TrimSuffix(base, ".html")] = t
	}
	return pages, nil
}

// page wraps a handler: it refuses databases that need migration, loads
// the workspace named in the path, and renders the page or its error.
func (s *Server) page(h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		d := &pageData{Now: store.FormatTime(s.opts.Now()), Searchable: s.opts.Search != nil}
		name, status, err := s.prepare(r, d)
		if s.act != nil {
			d.Acting = true
			if d.WS != nil {
				d.CSRF = s.act.pageToken(browserID(w, r), d.WS.ID, s.opts.Now())
			}
		}
		if err == nil && name == "" {
			name, err = h(r, d)
		}
		if err != nil {
			status = http.StatusInternalServerError
			if _, ok := err.(notFound); ok {
				status = http.StatusNotFound
			} else {
				log.Printf("web: %s: %v", r.URL.Path, err)
			}
			name, d.Title, d.Body = "error", "Error", err.Error()
		}
		var buf bytes.Buffer
		if err := s.pages[name].Execute(&buf, d); err != nil {
			log.Printf("web: render %s: %v", name, err)
			http.Error(w, "the page could not be rendered", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		buf.WriteTo(w)
	}
}

// prepare fills the data every page shares. It returns the migration page
// for a database older than this build reads.
func (s *Server) prepare(r *http.Request, d *pageData) (string, int, error) {
	ctx := r.Context()
	old, err := s.opts.Store.NeedsMigration(ctx)
	if err != nil {
		return "", 0, err
	}
	if old {
		v, err := s.opts.Store.SchemaVersion(ctx)
		if err != nil {
			return "", 0, err
		}
		d.Title, d.Body = "Database needs migration", migration{Path: s.opts.Store.Path(), Have: v, Want: backend.SchemaVersion}
		return "migrate", http.StatusServiceUnavailable, nil
	}
	if d.Workspaces, err = s.opts.Store.Workspaces(ctx); err != nil {
		return "", 0, err
	}
	if id := r.PathValue("ws"); id != "" {
		for i := range d.Workspaces {
			if d.Workspaces[i].ID == id {
				d.WS = &d.Workspaces[i]
			}
		}
		if d.WS == nil {
			return "", 0, notFound("No workspace " + id + " in this database.")
		}
	}
	return "", http.StatusOK, nil
}

// migration is the body of the page shown for an older database.
type migration struct {
	Path       string
	Have, Want int64
}

var funcs = template.FuncMap{
	"deref": func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	},
	"short": func(s string) string {
		if len(s) > 16 {
			return s[:16]
		}
		return s
	},
	"join": strings.Join,
	"inc":  func(n int64) int64 { return n + 1 },
	"dict2": func(t *thread, now string) threadView {
		return threadView{T: t, Now: now}
	},
	"ago":     ago,
	"formkey": newFormKey,
	"bound":   bound,
	"label": func(s string) string {
		return strings.ReplaceAll(s, "_", " ")
	},
}

// ago renders how long before now the journal timestamp iso was.
func ago(iso, now string) string {
	t, err := store.ParseTime(iso)
	n, err2 := store.ParseTime(now)
	if err != nil || err2 != nil {
		return iso
	}
	d := n.Sub(t)
	if d < 0 {
		return "in " + human(-d)
	}
	return human(d) + " ago"
}

func human(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm %ds", int(d.Minutes()), int(d.Seconds())%60)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh %dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	}
}

// threadView hands one thread and the page clock to the recursive
// thread template.
type threadView struct {
	T   *thread
	Now string
}
