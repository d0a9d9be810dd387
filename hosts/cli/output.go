package cli

import (
	"encoding/json"
	"fmt"
	"io"
)

// printer renders one command's output: JSON for scripts, else text with
// colour only where ColorFor allows it. Every text line goes through safef,
// so journal text reaches the terminal with its control characters escaped
// (hosts/termtext) whether or not stdout is a terminal: a pipe into less or
// a file later cat'ed ends on a terminal too.
type printer struct {
	w     io.Writer
	color bool
}

func newPrinter(w io.Writer) *printer { return &printer{w: w, color: ColorFor(w)} }

// json writes v as indented JSON, exactly: JSON's own escaping covers C0
// controls, and a program reads it.
func (p *printer) json(v any) error {
	enc := json.NewEncoder(p.w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// line prints format with a's journal text escaped (safef).
func (p *printer) line(format string, a ...any) { fmt.Fprintln(p.w, string(safef(format, a...))) }

func (p *printer) heading(title string) { p.line("%s", p.paint("1", title)) }

// paint escapes text and, on a colour terminal, wraps it in an SGR code.
func (p *printer) paint(code, text string) shown {
	safe := string(safef("%s", text))
	if !p.color {
		return shown(safe)
	}
	return shown("\x1b[" + code + "m" + safe + "\x1b[0m")
}

// deref renders an optional string, "-" when absent.
func deref(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}
