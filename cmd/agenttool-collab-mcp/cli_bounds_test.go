package main

import (
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
			if got := (cli.Bound{Field: b.Field, Min: deref(s.MinLength), Max: deref(s.MaxLength), Enum: s.Enum}); !sameBound(got, b) {
				t.Errorf("%s.%s: the CLI checks %+v, the schema says %+v", name, b.Field, b, got)
			}
			if s.Pattern != "" {
				t.Errorf("%s.%s: the schema has a pattern the CLI does not check", name, b.Field)
			}
		}
	}
}

func deref(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

func sameBound(a, b cli.Bound) bool {
	return a.Field == b.Field && a.Min == b.Min && a.Max == b.Max && slices.Equal(a.Enum, b.Enum)
}
