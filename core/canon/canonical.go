package canon

import "fmt"

// Canonicalize returns the canonical encoding of the JSON text data, that is
// Append(nil, Parse(data)). When data is already canonical it is returned
// itself, without copying or allocating, so callers must not modify the
// result if they still need the input.
func Canonicalize(data []byte) ([]byte, error) {
	if IsCanonical(data) {
		return data, nil
	}
	v, err := Parse(data)
	if err != nil {
		return nil, err
	}
	out, err := Append(nil, v)
	if err != nil {
		return nil, fmt.Errorf("canon: re-encoding parsed JSON: %w", err)
	}
	return out, nil
}

// IsCanonical reports whether data is byte-for-byte the canonical encoding
// of what Parse(data) returns. It reads data once, never allocates, and
// returns false for anything Parse rejects.
func IsCanonical(data []byte) bool {
	c := checker{data: data}
	return c.value(0) && c.pos == len(data)
}

// checker validates canonical JSON in a single forward pass. Every method
// returns false as soon as the text differs from canonical form.
type checker struct {
	data []byte
	pos  int
}

func (c *checker) value(depth int) bool {
	if c.pos >= len(c.data) {
		return false
	}
	switch b := c.data[c.pos]; {
	case b == '"':
		_, ok := c.str()
		return ok
	case b == '{':
		return depth < maxDepth && c.object(depth+1)
	case b == '[':
		return depth < maxDepth && c.array(depth+1)
	case b == '-' || isDigit(b):
		return c.number()
	case b == 't':
		return c.literal("true")
	case b == 'f':
		return c.literal("false")
	case b == 'n':
		return c.literal("null")
	}
	return false
}

func (c *checker) literal(word string) bool {
	if len(c.data)-c.pos < len(word) || string(c.data[c.pos:c.pos+len(word)]) != word {
		return false
	}
	c.pos += len(word)
	return true
}

func (c *checker) array(depth int) bool {
	c.pos++ // '['
	if c.pos < len(c.data) && c.data[c.pos] == ']' {
		c.pos++
		return true
	}
	for {
		if !c.value(depth) || c.pos >= len(c.data) {
			return false
		}
		b := c.data[c.pos]
		c.pos++
		if b == ']' {
			return true
		}
		if b != ',' {
			return false
		}
	}
}

func (c *checker) object(depth int) bool {
	c.pos++ // '{'
	if c.pos < len(c.data) && c.data[c.pos] == '}' {
		c.pos++
		return true
	}
	var prev keyToken
	for i := 0; ; i++ {
		if c.pos >= len(c.data) || c.data[c.pos] != '"' {
			return false
		}
		key, ok := c.str()
		if !ok || (i > 0 && !keyBefore(c.data, prev, key)) {
			return false
		}
		prev = key
		if c.pos >= len(c.data) || c.data[c.pos] != ':' {
			return false
		}
		c.pos++
		if !c.value(depth) || c.pos >= len(c.data) {
			return false
		}
		b := c.data[c.pos]
		c.pos++
		if b == '}' {
			return true
		}
		if b != ',' {
			return false
		}
	}
}
