package main

import (
	"fmt"
	"slices"
	"testing"

	"github.com/agenttool/collab/hosts/cli"
	"github.com/agenttool/collab/hosts/mcp"
)

// TestPeoplesArgumentBoundsFollowTheToolSchemas holds the bounds the
// people's commands check (they call the store directly, which does not
// check every bound again) equal to the tools' input schemas, field by
// field and in the schemas' order, so a person is refused exactly what an
// agent is.
func TestPeoplesArgumentBoundsFollowTheToolSchemas(t *testing.T) {
	tools := map[string]mcp.Tool{}
	for _, tool := range mcp.Tools() {
		tools[tool.Name] = tool
	}
	for name, bounds := range cli.ArgumentBounds() {
		tool, ok := tools[name]
		if !ok {
			t.Errorf("%s: no such tool", name)
			continue
		}
		last := -1
		for _, b := range bounds {
			at := slices.IndexFunc(tool.Input.Properties, func(p mcp.Property) bool { return p.Name == b.Field })
			if at < 0 {
				t.Errorf("%s.%s: not in the schema", name, b.Field)
				continue
			}
			if at < last {
				t.Errorf("%s.%s: out of the schema's order", name, b.Field)
			}
			last = at
			s := tool.Input.Properties[at].Schema
			if got := boundOf(b.Field, s); !sameBound(got, b) {
				t.Errorf("%s.%s: the CLI checks %s, the schema says %s", name, b.Field, shownBound(b), shownBound(got))
			}
			if s.Pattern != "" || (s.Items != nil && s.Items.Pattern != "") {
				t.Errorf("%s.%s: the schema has a pattern the CLI does not check", name, b.Field)
			}
		}
	}
}

// boundOf is what a property's schema states, in the CLI's terms: string
// lengths and values, a list's most entries and each entry's bound, a
// whole number's range (the schemas' safe-integer ceiling aside, which a
// lease length never meets).
func boundOf(field string, s *mcp.Schema) cli.Bound {
	b := cli.Bound{Field: field, Min: deref(s.MinLength), Max: deref(s.MaxLength), Enum: s.Enum}
	if s.MaxItems != nil {
		b.Items = *s.MaxItems
	}
	if s.Items != nil {
		each := boundOf("", s.Items)
		b.Each = &each
	}
	if s.Type == "integer" {
		b.Least, b.Most = deref64(s.Minimum), deref64(s.Maximum)
	}
	return b
}

func shownBound(b cli.Bound) string {
	if b.Each != nil {
		return fmt.Sprintf("%+v of %+v", b, *b.Each)
	}
	return fmt.Sprintf("%+v", b)
}

func deref64(n *int64) int64 {
	if n == nil {
		return 0
	}
	return *n
}

func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

func sameBound(a, b cli.Bound) bool {
	if (a.Each == nil) != (b.Each == nil) || (a.Each != nil && !sameBound(*a.Each, *b.Each)) {
		return false
	}
	return a.Field == b.Field && a.Min == b.Min && a.Max == b.Max && slices.Equal(a.Enum, b.Enum) &&
		a.Items == b.Items && a.Least == b.Least && a.Most == b.Most
}
