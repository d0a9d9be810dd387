package hermes

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Entry is the mcp_servers entry this plugin writes into a Hermes config.
type Entry struct {
	// Command is the absolute path of the server binary. Hermes runs it
	// directly (no shell), so on Windows it names the .exe.
	Command string
	// Env is written as the entry's env map, in this order.
	Env []Var
}

// Var is one environment variable of an Entry.
type Var struct {
	Name, Value string
}

// Marker is the comment line that opens every entry this plugin writes.
const Marker = "# written by `agenttool-collab-mcp host install hermes`; `host uninstall hermes` removes it"

// lines renders the entry as a child of mcp_servers at column col with the
// given indentation step. Every string is written double-quoted (JSON
// escaping is valid YAML), so paths with spaces, colons or '#' survive.
func (e Entry) lines(name string, col, unit int) []string {
	in1 := strings.Repeat(" ", col)
	in2 := strings.Repeat(" ", col+unit)
	in3 := strings.Repeat(" ", col+2*unit)
	out := []string{
		in1 + name + ":",
		in2 + Marker,
		in2 + "command: " + quote(e.Command),
		in2 + "args: []",
	}
	if len(e.Env) == 0 {
		out = append(out, in2+"env: {}")
	} else {
		out = append(out, in2+"env:")
		for _, v := range e.Env {
			out = append(out, in3+v.Name+": "+quote(v.Value))
		}
	}
	return append(out, in2+"enabled: true")
}

// quote writes s as a double-quoted scalar.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// unquote reads a scalar the way this package writes it, plus the plain
// and single-quoted forms a person may have used, dropping any comment
// that follows it.
func unquote(s string) string {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasPrefix(s, `"`):
		tok, err := json.NewDecoder(strings.NewReader(s)).Token()
		if v, ok := tok.(string); err == nil && ok {
			return v
		}
		return strings.Trim(s, `"`)
	case strings.HasPrefix(s, "'"):
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] != '\'' {
				b.WriteByte(s[i])
				continue
			}
			if i+1 < len(s) && s[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			break
		}
		return b.String()
	}
	return stripComment(s)
}
