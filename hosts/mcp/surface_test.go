package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/agenttool/collab/core/golden"
)

// referenceSurface is testdata/reference-surface.json: the reference's
// tools/list with descriptions removed.
type referenceSurface struct {
	Tools []struct {
		Name        string          `json:"name"`
		Annotations map[string]bool `json:"annotations"`
		InputSchema json.RawMessage `json:"inputSchema"`
	} `json:"tools"`
}

// stripDescriptions removes human text and sorts required lists, leaving
// the contract: names, types, limits, patterns, enums and requiredness.
func stripDescriptions(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if k == "description" || k == "$schema" {
				continue
			}
			if k == "required" {
				req := []string{}
				for _, r := range val.([]any) {
					req = append(req, r.(string))
				}
				sort.Strings(req)
				out[k] = req
				continue
			}
			out[k] = stripDescriptions(val)
		}
		return out
	case []any:
		for i := range x {
			x[i] = stripDescriptions(x[i])
		}
	}
	return v
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// extensions are the tools this server adds beyond the reference's 32.
// Conformance compares only the reference's tools; each extension must be
// listed here so that an accidental extra tool still fails.
var extensions = map[string]bool{"collab_search": true, "collab_wait": true, "collab_report_receipts": true, "collab_report_mark": true,
	"collab_independence_claim": true, "collab_independence_release": true, "collab_independence_list": true}

func TestEveryToolMatchesTheReferenceSurface(t *testing.T) {
	b, err := os.ReadFile("testdata/reference-surface.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref referenceSurface
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	defs := map[string]Tool{}
	for _, d := range Definitions() {
		if !extensions[d.Name] {
			defs[d.Name] = d
		}
	}
	if len(defs) != 32 || len(ref.Tools) != 32 || len(Definitions()) != 32+len(extensions) {
		t.Fatalf("%d reference-named definitions of %d, %d reference tools; want the 32 plus %d extensions",
			len(defs), len(Definitions()), len(ref.Tools), len(extensions))
	}
	for _, rt := range ref.Tools {
		d, ok := defs[rt.Name]
		if !ok {
			t.Errorf("missing tool %s", rt.Name)
			continue
		}
		got := stripDescriptions(decode(t, d.Input.topLevel()))
		want := stripDescriptions(decode(t, rt.InputSchema))
		if !reflect.DeepEqual(got, want) {
			gb, _ := json.Marshal(got)
			wb, _ := json.Marshal(want)
			t.Errorf("%s schema differs:\n got %s\nwant %s", rt.Name, gb, wb)
		}
		a, _ := json.Marshal(d.Class.annotations())
		var ann map[string]bool
		json.Unmarshal(a, &ann)
		if !reflect.DeepEqual(ann, rt.Annotations) {
			t.Errorf("%s annotations %v, want %v", rt.Name, ann, rt.Annotations)
		}
	}
}

func TestEveryToolIsServedWithTitleDescriptionAndHandler(t *testing.T) {
	served := Tools()
	if len(served) != len(Definitions()) {
		t.Fatalf("%d of %d tools have handlers", len(served), len(Definitions()))
	}
	for _, tool := range served {
		if tool.Title == "" || tool.Description == "" || tool.Handle == nil {
			t.Errorf("%s lacks a title, description or handler", tool.Name)
		}
		a := tool.Class.annotations()
		if a.DestructiveHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s leaves an annotation hint unset", tool.Name)
		}
	}
}

func TestToolTableIsCurrent(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "tools.md")
	golden.Check(t, path, []byte(ToolTable()))
}
