package mcp

import "bytes"

// indentJSON appends src, which must be valid JSON, to dst laid out as
// json.Indent(dst, src, "", "  ") lays it out: a newline and two spaces per
// level after each opening bracket and comma, a space after each colon,
// empty objects and arrays kept as {} and [], whitespace before and inside
// the value dropped and after it kept, strings copied byte for byte.
//
// json.Indent runs every byte through encoding/json's validating scanner,
// which made it the costliest step of rendering a large answer; every text
// content block is the indented form of a structured result that
// encoding/json produced (see toolResult), so the layout alone is needed
// here. For input that is not valid JSON the output is unspecified.
func indentJSON(dst *bytes.Buffer, src []byte) {
	dst.Grow(len(src) + len(src)/2)
	trailing := len(src)
	for trailing > 0 && isJSONSpace(src[trailing-1]) {
		trailing--
	}
	defer dst.Write(src[trailing:])
	src = src[:trailing]
	depth := 0
	pending := false // an opening bracket whose newline waits for the next token
	inString, escaped := false, false
	start := 0 // start of the run of bytes not yet copied
	flush := func(end int) {
		dst.Write(src[start:end])
		start = end
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if isJSONSpace(c) {
			flush(i)
			start = i + 1
			continue
		}
		switch c {
		case '}', ']':
			flush(i)
			if pending {
				pending = false
			} else {
				depth--
				newline(dst, depth)
			}
			continue
		}
		if pending {
			flush(i)
			pending = false
			depth++
			newline(dst, depth)
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			flush(i + 1)
			pending = true
		case ',':
			flush(i + 1)
			newline(dst, depth)
		case ':':
			flush(i + 1)
			dst.WriteByte(' ')
		}
	}
	flush(len(src))
}

// newline starts a line indented to depth levels of two spaces.
func newline(dst *bytes.Buffer, depth int) {
	dst.WriteByte('\n')
	for range depth {
		dst.WriteString("  ")
	}
}

// isJSONSpace reports whether c is whitespace between JSON tokens.
func isJSONSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}
