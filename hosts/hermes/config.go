package hermes

import (
	"strings"

	"github.com/agenttool/collab/core/collaberr"
)

// serversKey is the top-level mapping Hermes reads MCP servers from.
const serversKey = "mcp_servers"

// Config is a Hermes config.yaml, edited line by line so comments, order
// and formatting outside the one server entry are kept.
type Config struct {
	doc *document
}

// ParseConfig holds data for editing. It never fails: YAML it cannot place
// an entry in is refused by SetServer, not here.
func ParseConfig(data []byte) *Config {
	return &Config{doc: parseDocument(data)}
}

// Bytes returns the file as edited.
func (c *Config) Bytes() []byte { return c.doc.bytes() }

// servers locates the top-level mcp_servers key: its line, the end of its
// block, and the value written on the key's own line ("" for a block).
func (c *Config) servers() (line, end int, inline string, found bool) {
	for i, l := range c.doc.lines {
		if indent(l) != 0 || !isContent(l) {
			continue
		}
		if k, rest, ok := keyOf(l); ok && k == serversKey {
			return i, c.doc.blockEnd(i), stripComment(rest), true
		}
	}
	return 0, 0, "", false
}

// SetServer writes the entry name into mcp_servers, replacing an entry of
// that name and leaving every other line alone. It reports whether the
// file changed.
func (c *Config) SetServer(name string, e Entry) (bool, error) {
	before := string(c.Bytes())
	line, end, inline, found := c.servers()
	unit := c.doc.indentUnit()
	switch {
	case !found:
		c.appendServers(name, e, unit)
	case inline == "{}" || inline == "null" || inline == "~":
		c.doc.lines[line] = serversKey + ":" + trailingComment(c.doc.lines[line])
		c.doc.replace(line+1, line+1, e.lines(name, unit, unit))
	case inline != "":
		return false, collaberr.New(collaberr.HermesConfigUnsupported,
			"mcp_servers is written in flow style on one line; rewrite it as a block mapping or add the entry by hand").
			With("value", inline)
	default:
		col := c.doc.childColumn(line+1, end, unit)
		if at, ok := c.doc.findKey(line+1, end, col, name); ok {
			c.doc.replace(at, c.doc.blockEnd(at), e.lines(name, col, unit))
		} else {
			c.doc.replace(end, end, e.lines(name, col, unit))
		}
	}
	return string(c.Bytes()) != before, nil
}

// appendServers adds a new mcp_servers block at the end of the file.
func (c *Config) appendServers(name string, e Entry, unit int) {
	d := c.doc
	if n := len(d.lines); n > 0 && !isBlank(d.lines[n-1]) {
		d.lines = append(d.lines, "")
	}
	d.lines = append(d.lines, serversKey+":")
	d.lines = append(d.lines, e.lines(name, unit, unit)...)
	d.final = true
}

// trailingComment returns the comment ending a key line, with the spaces
// that separate it from the value, or "".
func trailingComment(line string) string {
	colon := strings.Index(line, ":")
	for i := colon + 1; i < len(line); i++ {
		if line[i] != '#' || (line[i-1] != ' ' && line[i-1] != '\t') {
			continue
		}
		j := i
		for j > colon+1 && (line[j-1] == ' ' || line[j-1] == '\t') {
			j--
		}
		return line[j:]
	}
	return ""
}

// RemoveServer deletes the entry name from mcp_servers and reports whether
// it was there. A block left without entries becomes "mcp_servers: {}".
func (c *Config) RemoveServer(name string) bool {
	line, end, inline, found := c.servers()
	if !found || inline != "" {
		return false
	}
	col := c.doc.childColumn(line+1, end, 0)
	at, ok := c.doc.findKey(line+1, end, col, name)
	if !ok {
		return false
	}
	c.doc.replace(at, c.doc.blockEnd(at), nil)
	if _, end, _, _ = c.servers(); !c.doc.hasContent(line+1, end) {
		c.doc.lines[line] = serversKey + ": {}" + trailingComment(c.doc.lines[line])
	}
	return true
}

// Server reads back the command and env of the entry name. It understands
// the block form this package writes and simple hand-written entries.
func (c *Config) Server(name string) (Entry, bool) {
	line, end, inline, found := c.servers()
	if !found || inline != "" {
		return Entry{}, false
	}
	col := c.doc.childColumn(line+1, end, 0)
	at, ok := c.doc.findKey(line+1, end, col, name)
	if !ok {
		return Entry{}, false
	}
	return c.readEntry(at+1, c.doc.blockEnd(at)), true
}

func (c *Config) readEntry(from, to int) Entry {
	var e Entry
	col := c.doc.childColumn(from, to, 0)
	for i := from; i < to; i++ {
		l := c.doc.lines[i]
		if !isContent(l) || indent(l) != col {
			continue
		}
		key, rest, ok := keyOf(l)
		switch {
		case !ok:
		case key == "command":
			e.Command = unquote(rest)
		case key == "env":
			e.Env = c.readVars(i+1, c.doc.blockEnd(i))
		}
	}
	return e
}

func (c *Config) readVars(from, to int) []Var {
	var vars []Var
	col := c.doc.childColumn(from, to, 0)
	for i := from; i < to; i++ {
		l := c.doc.lines[i]
		if !isContent(l) || indent(l) != col {
			continue
		}
		if key, rest, ok := keyOf(l); ok {
			vars = append(vars, Var{Name: key, Value: unquote(rest)})
		}
	}
	return vars
}

// serverBlock locates the entry name: its first line and the end of its
// block.
func (c *Config) serverBlock(name string) (at, end int, ok bool) {
	line, sEnd, inline, found := c.servers()
	if !found || inline != "" {
		return 0, 0, false
	}
	col := c.doc.childColumn(line+1, sEnd, 0)
	at, ok = c.doc.findKey(line+1, sEnd, col, name)
	if !ok {
		return 0, 0, false
	}
	return at, c.doc.blockEnd(at), true
}

// ForeignServer returns the lines of the entry name exactly as written
// when the entry exists and this plugin did not write it (no Marker).
func (c *Config) ForeignServer(name string) ([]string, bool) {
	at, end, ok := c.serverBlock(name)
	if !ok {
		return nil, false
	}
	lines := append([]string{}, c.doc.lines[at:end]...)
	for _, l := range lines {
		if strings.TrimSpace(l) == Marker {
			return nil, false
		}
	}
	return lines, true
}

// RestoreServer puts back lines saved by ForeignServer in place of the
// entry name; it reports whether the entry was there to replace.
func (c *Config) RestoreServer(name string, lines []string) bool {
	at, end, ok := c.serverBlock(name)
	if !ok {
		return false
	}
	c.doc.replace(at, end, lines)
	return true
}
