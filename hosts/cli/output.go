package cli

import (
	"encoding/json"
	"fmt"
	"io"
)

// printer renders one command's output: JSON for scripts, else text with
// colour only where ColorFor allows it.
type printer struct {
	w     io.Writer
	color bool
}

func newPrinter(w io.Writer) *printer { return &printer{w: w, color: ColorFor(w)} }

// json writes v as indented JSON.
func (p *printer) json(v any) error {
	enc := json.NewEncoder(p.w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func (p *printer) line(format string, a ...any) { fmt.Fprintf(p.w, format+"\n", a...) }

func (p *printer) heading(title string) { p.line("%s", p.paint("1", title)) }

func (p *printer) paint(code, text string) string {
	if !p.color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// deref renders an optional string, "-" when absent.
func deref(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}
