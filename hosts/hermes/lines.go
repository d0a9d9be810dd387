package hermes

import (
	"bytes"
	"strings"
)

// document is a YAML file held as lines, edited in place so everything
// outside the lines an edit touches (comments, blank lines, key order,
// quoting) stays byte for byte as it was.
type document struct {
	lines []string
	nl    string // "\n" or "\r\n", whichever the file uses
	final bool   // whether the file ended with a newline
}

func parseDocument(data []byte) *document {
	d := &document{nl: "\n", final: len(data) == 0 || bytes.HasSuffix(data, []byte("\n"))}
	if bytes.Contains(data, []byte("\r\n")) {
		d.nl = "\r\n"
	}
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	text = strings.TrimSuffix(text, "\n")
	if text != "" {
		d.lines = strings.Split(text, "\n")
	}
	return d
}

func (d *document) bytes() []byte {
	if len(d.lines) == 0 {
		return nil
	}
	out := strings.Join(d.lines, d.nl)
	if d.final {
		out += d.nl
	}
	return []byte(out)
}

// replace swaps lines [from, to) for repl.
func (d *document) replace(from, to int, repl []string) {
	tail := append([]string{}, d.lines[to:]...)
	d.lines = append(append(d.lines[:from], repl...), tail...)
}

// indent is the number of leading spaces of a line.
func indent(line string) int {
	return len(line) - len(strings.TrimLeft(line, " "))
}

// isBlank reports a line with nothing but spaces or tabs.
func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

// isComment reports a line whose first non-space character starts a comment.
func isComment(line string) bool { return strings.HasPrefix(strings.TrimSpace(line), "#") }

// isContent reports a line that carries YAML data.
func isContent(line string) bool { return !isBlank(line) && !isComment(line) }

// keyOf returns the mapping key a content line starts with, unquoted, and
// the text after its colon; ok is false when the line is not "key: ...".
func keyOf(line string) (key, rest string, ok bool) {
	s := strings.TrimLeft(line, " ")
	if s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "- ") {
		return "", "", false
	}
	if q := s[0]; q == '"' || q == '\'' {
		end := strings.IndexByte(s[1:], q)
		if end < 0 || !strings.HasPrefix(s[end+2:], ":") {
			return "", "", false
		}
		key, rest = s[1:end+1], s[end+3:]
	} else {
		i := strings.Index(s, ":")
		if i <= 0 {
			return "", "", false
		}
		key, rest = s[:i], s[i+1:]
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", "", false // "a:b" is a plain scalar, not a key
	}
	return key, strings.TrimSpace(rest), true
}

// stripComment removes a trailing " # comment" from the text after a key.
func stripComment(rest string) string {
	if strings.HasPrefix(rest, "#") {
		return ""
	}
	if i := strings.Index(rest, " #"); i >= 0 {
		return strings.TrimSpace(rest[:i])
	}
	return rest
}

// blockEnd returns the index just past the lines owned by the key at
// line start: every following line indented deeper than it, plus the
// comments indented deeper, but not trailing blanks or shallower comments
// (those belong to whatever follows).
func (d *document) blockEnd(start int) int {
	base := indent(d.lines[start])
	last := start
	for i := start + 1; i < len(d.lines); i++ {
		line := d.lines[i]
		if isBlank(line) {
			continue
		}
		if indent(line) <= base {
			if isComment(line) {
				continue
			}
			break
		}
		last = i
	}
	return last + 1
}

// findKey returns the line of key among the direct children of the block
// [from, to) whose children sit at column col.
func (d *document) findKey(from, to, col int, key string) (int, bool) {
	for i := from; i < to; i++ {
		line := d.lines[i]
		if !isContent(line) || indent(line) != col {
			continue
		}
		if k, _, ok := keyOf(line); ok && k == key {
			return i, true
		}
	}
	return 0, false
}

// childColumn returns the column of the first content line in [from, to),
// or def when there is none.
func (d *document) childColumn(from, to, def int) int {
	for i := from; i < to; i++ {
		if isContent(d.lines[i]) {
			return indent(d.lines[i])
		}
	}
	return def
}

// hasContent reports whether any line in [from, to) carries data.
func (d *document) hasContent(from, to int) bool {
	for i := from; i < to; i++ {
		if isContent(d.lines[i]) {
			return true
		}
	}
	return false
}

// indentUnit guesses the file's indentation step from its first indented
// content line, defaulting to two spaces.
func (d *document) indentUnit() int {
	for _, line := range d.lines {
		if isContent(line) && indent(line) > 0 {
			return indent(line)
		}
	}
	return 2
}
