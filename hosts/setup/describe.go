package setup

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/hosts/hermes"
)

// Describe prints each file a plan touches and, for config.yaml, the lines
// that change, prefixed "- " (removed) and "+ " (added).
func Describe(w io.Writer, p hermes.Plan, dryRun bool) {
	verb := ""
	if dryRun {
		verb = "would "
	}
	fmt.Fprintf(w, "Hermes profile: %s\n", p.Home)
	for _, c := range p.Changes {
		switch {
		case c.Noop():
			fmt.Fprintf(w, "  unchanged  %s\n", c.Path)
			continue
		case c.After == nil:
			fmt.Fprintf(w, "  %sremove  %s\n", verb, c.Path)
		case c.Before == nil:
			fmt.Fprintf(w, "  %screate  %s\n", verb, c.Path)
		default:
			fmt.Fprintf(w, "  %supdate  %s\n", verb, c.Path)
		}
		if filepath.Base(c.Path) == "config.yaml" {
			for _, l := range changedLines(c.Before, c.After) {
				fmt.Fprintf(w, "      %s\n", l)
			}
		}
	}
}

// changedLines lists what differs between two versions of a file whose
// edit is one contiguous block: the old lines, then the new ones.
func changedLines(before, after []byte) []string {
	a, b := lines(before), lines(after)
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	var out []string
	for _, l := range a[head : len(a)-tail] {
		out = append(out, "- "+l)
	}
	for _, l := range b[head : len(b)-tail] {
		out = append(out, "+ "+l)
	}
	return out
}

func lines(data []byte) []string {
	text := string(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")))
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}
