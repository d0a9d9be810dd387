package doctor

import (
	"fmt"
	"io"
	"strings"
)

// WriteText prints the report for a person: one line per check, ✔ for
// fine, ✖ for a problem, · for information, then the actions needed.
func (r Report) WriteText(w io.Writer) error {
	p := &printer{w: w}
	p.line("agenttool-collab-mcp doctor — binary %s (%s)", r.Version, r.Executable)
	if r.Launch.Host != "none" {
		p.line("  launched by %s (from %s)", r.Launch.Host, r.Launch.Via)
	}
	p.section("Database this process opens")
	p.mark(r.Database.Error == "" && !r.Database.Relative, "%s  (chosen by %s)", orText(r.Database.Path, r.Database.Error), r.Database.Source)
	p.section("Hosts")
	installed := false
	for _, h := range r.Hosts {
		p.host(h)
		installed = installed || h.Installed
	}
	if !installed {
		p.info("no host installed (see docs/install.md; from a checkout: agenttool-collab-mcp host stage DIR)")
	}
	p.section("Plugin root")
	if r.PluginRoot == nil {
		p.info("none found (not run from a package; pass --plugin-root to check one)")
	} else {
		p.mark(len(r.PluginRoot.Problems) == 0, "%s  (from %s)", r.PluginRoot.Path, r.PluginRoot.Via)
		for _, m := range r.PluginRoot.Manifests {
			p.mark(m.Matches, "  %s %s = %s", m.File, m.Field, m.Version)
		}
	}
	p.section("File modes")
	if len(r.Files) == 0 {
		p.info("nothing to check")
	}
	for _, f := range r.Files {
		p.mark(f.OK, "%s %s  %s (want %s)", f.What, f.Path, f.Got, f.Want)
	}
	p.section("Journal")
	switch r.Journal.Status {
	case JournalOK:
		p.mark(true, "%s", r.Journal.Detail)
	case JournalFailed:
		p.mark(false, "%s", r.Journal.Detail)
	default:
		p.info("%s %s", r.Journal.Status, r.Journal.Detail)
	}
	if r.ActionNeeded() {
		p.section("Action needed")
		for _, prob := range r.Problems {
			p.line("  - %s", prob)
		}
	} else {
		p.line("\nAll hosts reach the same journal; nothing to do.")
	}
	return p.err
}

func (p *printer) host(h HostReport) {
	if h.Entry == "" {
		p.info("%-12s %s", h.Host, h.Note)
		return
	}
	state := "installed"
	if !h.Installed {
		state = "package manifest, not installed"
	}
	p.mark(h.Agrees, "%-12s %s (%s)", h.Host, h.Entry, state)
	p.line("      forwards %s", orText(strings.Join(h.Forwarded, ", "), "nothing relevant"))
	if len(h.Dropped) > 0 {
		p.line("      drops    %s", strings.Join(h.Dropped, ", "))
	}
	p.line("      opens    %s", orText(h.Database.Path, h.Database.Error))
	if h.Note != "" {
		p.line("      note     %s", h.Note)
	}
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}

func (p *printer) section(title string) { p.line("\n%s", title) }

func (p *printer) mark(ok bool, format string, args ...any) {
	m := "✔"
	if !ok {
		m = "✖"
	}
	p.line("  "+m+" "+format, args...)
}

func (p *printer) info(format string, args ...any) { p.line("  · "+format, args...) }

func orText(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
