package canon

import (
	"bytes"
	"fmt"
)

// Parse decodes one JSON text the way JavaScript's JSON.parse does and
// returns nil, bool, float64, string, []any or map[string]any. Numbers are
// rounded to the nearest float64 (so 1e-400 becomes 0 and 2e308 becomes
// +Inf), a repeated object key keeps its last value, "__proto__" is an
// ordinary key, and an escaped surrogate that does not form a valid pair is
// kept as a WTF-8 surrogate in the resulting string. Text that JSON.parse
// rejects is refused, and so is input that is not valid UTF-8 or nests more
// than 10000 levels deep; the error is a *SyntaxError.
func Parse(data []byte) (any, error) {
	p := parser{data: data}
	p.skipSpace()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(data) {
		return nil, p.fail(p.pos, "unexpected data after the value")
	}
	return v, nil
}

// parser is a recursive-descent reader over one JSON text.
type parser struct {
	data []byte
	pos  int
}

func (p *parser) fail(at int, reason string) error {
	return &SyntaxError{Offset: at, reason: reason}
}

// skipSpace advances over the four whitespace characters JSON allows.
func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if p.pos >= len(p.data) {
		return nil, p.fail(p.pos, "unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, p.fail(p.pos, "unexpected character")
}

func (p *parser) literal(word string) error {
	if !bytes.HasPrefix(p.data[p.pos:], []byte(word)) {
		return p.fail(p.pos, "invalid literal")
	}
	p.pos += len(word)
	return nil
}

func (p *parser) checkDepth(depth int) error {
	if depth > maxDepth {
		return p.fail(p.pos, fmt.Sprintf("nesting deeper than %d levels", maxDepth))
	}
	return nil
}

func (p *parser) array(depth int) (any, error) {
	if err := p.checkDepth(depth); err != nil {
		return nil, err
	}
	p.pos++
	p.skipSpace()
	items := []any{}
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return items, nil
	}
	for {
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		if done, err := p.separator(']'); done || err != nil {
			return items, err
		}
	}
}

func (p *parser) object(depth int) (any, error) {
	if err := p.checkDepth(depth); err != nil {
		return nil, err
	}
	p.pos++
	p.skipSpace()
	members := map[string]any{}
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return members, nil
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.fail(p.pos, "expected a string key")
		}
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.fail(p.pos, "expected ':' after a key")
		}
		p.pos++
		p.skipSpace()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		members[key] = v // a repeated key keeps its last value, as in JSON.parse
		if done, err := p.separator('}'); done || err != nil {
			return members, err
		}
	}
}

// separator consumes whitespace and then either ',' (and the whitespace
// after it) or the closing bracket, reporting whether the container ended.
func (p *parser) separator(closing byte) (bool, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return false, p.fail(p.pos, "unexpected end of input")
	}
	switch p.data[p.pos] {
	case ',':
		p.pos++
		p.skipSpace()
		return false, nil
	case closing:
		p.pos++
		return true, nil
	}
	return false, p.fail(p.pos, fmt.Sprintf("expected ',' or '%c'", closing))
}
