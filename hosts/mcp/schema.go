package mcp

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// maxSafeInteger is JavaScript's Number.MAX_SAFE_INTEGER, the upper bound
// the reference's schemas put on every integer.
const maxSafeInteger = 9007199254740991

// Schema is the subset of JSON Schema (draft 2020-12) the collab tools use.
// It both renders the advertised inputSchema and validates arguments, so
// what a client is told and what the server enforces cannot drift apart.
type Schema struct {
	Type             string // "object", "string", "integer", "array"
	Description      string
	MinLength        *int // UTF-16 code units, as JavaScript counts
	MaxLength        *int
	Pattern          string
	Enum             []string
	Minimum          *int64
	ExclusiveMinimum *int64
	Maximum          *int64
	MaxItems         *int
	Items            *Schema
	Properties       []Property
	Required         []string

	pattern *regexp.Regexp
}

// Property is one named member of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

func intPtr(n int) *int       { return &n }
func int64Ptr(n int64) *int64 { return &n }

// str is a string schema; chain min, max, matching and describe.
func str() *Schema { return &Schema{Type: "string"} }

// integer is an integer schema bounded like a JavaScript safe integer.
func integer() *Schema { return &Schema{Type: "integer", Maximum: int64Ptr(maxSafeInteger)} }

// enum is a string schema admitting only the listed values.
func enum(values ...string) *Schema { return &Schema{Type: "string", Enum: values} }

// array is an array schema of items.
func array(items *Schema) *Schema { return &Schema{Type: "array", Items: items} }

// object is an object schema; required names the mandatory properties.
func object(props []Property, required ...string) *Schema {
	return &Schema{Type: "object", Properties: props, Required: required}
}

func (s *Schema) min(n int) *Schema { s.MinLength = intPtr(n); return s }
func (s *Schema) max(n int) *Schema {
	if s.Type == "array" {
		s.MaxItems = intPtr(n)
	} else {
		s.MaxLength = intPtr(n)
	}
	return s
}
func (s *Schema) length(n int) *Schema            { return s.min(n).max(n) }
func (s *Schema) matching(pattern string) *Schema { s.Pattern = pattern; return s }
func (s *Schema) describe(text string) *Schema    { s.Description = text; return s }
func (s *Schema) atLeast(n int64) *Schema         { s.Minimum = int64Ptr(n); return s }
func (s *Schema) above(n int64) *Schema           { s.ExclusiveMinimum = int64Ptr(n); return s }
func (s *Schema) atMost(n int64) *Schema          { s.Maximum = int64Ptr(n); return s }

// compile prepares patterns; it panics on a bad pattern because schemas are
// fixed program data.
func (s *Schema) compile() *Schema {
	if s.Pattern != "" && s.pattern == nil {
		s.pattern = regexp.MustCompile(s.Pattern)
	}
	if s.Items != nil {
		s.Items.compile()
	}
	for _, p := range s.Properties {
		p.Schema.compile()
	}
	return s
}

// MarshalJSON renders the schema with keys in a stable, readable order.
func (s *Schema) MarshalJSON() ([]byte, error) { return s.render(false) }

func (s *Schema) render(top bool) ([]byte, error) {
	var b bytes.Buffer
	w := objectWriter{buf: &b}
	w.field("type", s.Type)
	if top {
		w.field("$schema", "https://json-schema.org/draft/2020-12/schema")
	}
	if s.Description != "" {
		w.field("description", s.Description)
	}
	w.optInt("minLength", s.MinLength)
	w.optInt("maxLength", s.MaxLength)
	if s.Pattern != "" {
		w.field("pattern", s.Pattern)
	}
	if s.Enum != nil {
		w.field("enum", s.Enum)
	}
	w.optInt64("minimum", s.Minimum)
	w.optInt64("exclusiveMinimum", s.ExclusiveMinimum)
	w.optInt64("maximum", s.Maximum)
	w.optInt("maxItems", s.MaxItems)
	if s.Items != nil {
		w.field("items", s.Items)
	}
	if s.Type == "object" {
		w.raw("properties", s.renderProperties())
		if len(s.Required) > 0 {
			w.field("required", s.Required)
		}
	}
	w.close()
	return b.Bytes(), w.err
}

func (s *Schema) renderProperties() []byte {
	var b bytes.Buffer
	w := objectWriter{buf: &b}
	for _, p := range s.Properties {
		w.field(p.Name, p.Schema)
	}
	w.close()
	return b.Bytes()
}

// topLevel renders an input schema with its $schema marker.
func (s *Schema) topLevel() json.RawMessage {
	out, err := s.render(true)
	if err != nil {
		panic(err)
	}
	return out
}

type objectWriter struct {
	buf   *bytes.Buffer
	count int
	err   error
}

func (w *objectWriter) key(k string) {
	if w.count == 0 {
		w.buf.WriteByte('{')
	} else {
		w.buf.WriteByte(',')
	}
	w.count++
	kb, _ := json.Marshal(k)
	w.buf.Write(kb)
	w.buf.WriteByte(':')
}

func (w *objectWriter) close() {
	if w.count == 0 {
		w.buf.WriteByte('{')
	}
	w.buf.WriteByte('}')
}

func (w *objectWriter) field(k string, v any) {
	vb, err := json.Marshal(v)
	if err != nil && w.err == nil {
		w.err = err
	}
	w.raw(k, vb)
}

func (w *objectWriter) raw(k string, v []byte) {
	w.key(k)
	w.buf.Write(v)
}

func (w *objectWriter) optInt(k string, v *int) {
	if v != nil {
		w.field(k, *v)
	}
}

func (w *objectWriter) optInt64(k string, v *int64) {
	if v != nil {
		w.field(k, *v)
	}
}
