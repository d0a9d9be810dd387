package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/golden"
)

// snapshotDir holds one JSON file per tool: its tools/list entry (name,
// title, description, annotations, input schema), indented so that a
// change to any word a host or model reads shows up in review as a diff.
const snapshotDir = "testdata/tools"

func TestToolSnapshotsAreCurrent(t *testing.T) {
	want := map[string]bool{}
	for _, tool := range Tools() {
		b, err := json.MarshalIndent(tool.listing(), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		name := tool.Name + ".json"
		want[name] = true
		t.Run(tool.Name, func(t *testing.T) {
			golden.Check(t, filepath.Join(snapshotDir, name), append(b, '\n'))
		})
	}
	entries, err := os.ReadDir(snapshotDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if want[e.Name()] {
			continue
		}
		if golden.Updating() {
			if err := os.Remove(filepath.Join(snapshotDir, e.Name())); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s/%s snapshots no tool; run %s", snapshotDir, e.Name(), golden.Regenerate)
	}
}

func TestAToolWithoutAHandlerIsNeverListed(t *testing.T) {
	orphan := func() (Tool, Handler) {
		return Tool{Name: "collab_orphan", Input: object(nil)}, nil
	}
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "collab_orphan") {
			t.Fatalf("assembling a tool without a handler did not panic naming it (recovered %v)", r)
		}
	}()
	tools := assemble([]constructor{waitTool, orphan})
	t.Fatalf("assembled %d tools, one of them without a handler", len(tools))
}
