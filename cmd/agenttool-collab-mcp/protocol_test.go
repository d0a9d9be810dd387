package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// protocolEdges are the MCP protocol edges where this server answers as
// the reference 0.4.0 does. Each case is a whole stdin; want maps an id
// to "result" or an error code. TestProtocolEdgesMatchTheReference runs
// the same cases against the reference.
var protocolEdges = []struct {
	name  string
	lines []string
	want  map[string]string
}{
	{"requests before initialize are served", []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"collab_task_list","arguments":{"workspace_id":"nope"}}}`,
	}, map[string]string{"1": "result", "2": "result", "3": "result"}},
	{"a second initialize is answered like the first", []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
	}, map[string]string{"1": "result", "2": "result"}},
	{"initialize without protocolVersion", []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":5,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-06-18","clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"initialize"}`,
	}, map[string]string{"1": "-32603", "2": "-32603", "3": "-32603", "4": "-32603", "5": "-32603"}},
	{"protocol versions", []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-10-07","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"initialize","params":{"protocolVersion":"1999-01-01","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
	}, map[string]string{"1": "result", "2": "result", "3": "result", "4": "result", "5": "result", "6": "result"}},
	{"tools/call arguments must be an object", []string{
		initializeLine,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"collab_task_list","arguments":null}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"collab_task_list","arguments":[]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"collab_task_list","arguments":"x"}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"collab_task_list"}}`,
	}, map[string]string{`"init"`: "result", "1": "-32602", "2": "-32602", "3": "-32602", "4": "-32602", "5": "result"}},
	{"integer ids written with a fraction or an exponent", []string{
		initializeLine,
		`{"jsonrpc":"2.0","id":1e3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":7.0,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1.5e1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":-0,"method":"ping"}`,
	}, map[string]string{`"init"`: "result", "1000": "result", "7": "result", "15": "result", "0": "result"}},
	{"tools/list ignores an unknown cursor", []string{
		initializeLine,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"not-a-cursor"}}`,
	}, map[string]string{`"init"`: "result", "1": "result"}},
	{"methods without a capability are not found", []string{
		initializeLine,
		`{"jsonrpc":"2.0","id":1,"method":"resources/list"}`,
		`{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"x"}}`,
		`{"jsonrpc":"2.0","id":3,"method":"resources/templates/list"}`,
		`{"jsonrpc":"2.0","id":4,"method":"resources/subscribe","params":{"uri":"x"}}`,
		`{"jsonrpc":"2.0","id":5,"method":"prompts/list"}`,
		`{"jsonrpc":"2.0","id":6,"method":"prompts/get","params":{"name":"x"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"logging/setLevel","params":{"level":"info"}}`,
		`{"jsonrpc":"2.0","id":8,"method":"completion/complete","params":{}}`,
		`{"jsonrpc":"2.0","id":9,"method":"no/such/method"}`,
	}, map[string]string{`"init"`: "result", "1": "-32601", "2": "-32601", "3": "-32601", "4": "-32601", "5": "-32601",
		"6": "-32601", "7": "-32601", "8": "-32601", "9": "-32601"}},
}

// runEdges runs every protocol edge case against argv and checks want.
// It returns, per case, the answers by id, for comparisons.
func runEdges(t *testing.T, argv []string, env []string) map[string]map[string]map[string]any {
	t.Helper()
	all := map[string]map[string]map[string]any{}
	for _, tc := range protocolEdges {
		t.Run(tc.name, func(t *testing.T) {
			byID, nullID, _ := exchange(t, argv, env, tc.lines...)
			if len(nullID) != 0 {
				t.Errorf("answers with id null: %v", nullID)
			}
			for id, want := range tc.want {
				got := "unanswered"
				if r := byID[id]; r != nil {
					got = "result"
					if c := errorCode(r); c != "" {
						got = c
					}
				}
				if got != want {
					t.Errorf("id %s: %s, want %s (%v)", id, got, want, byID[id])
				}
			}
			all[tc.name] = byID
		})
	}
	return all
}

func TestProtocolEdges(t *testing.T) {
	s := newSandbox(t)
	answers := runEdges(t, []string{os.Args[0]}, s.env())

	versions := answers["protocol versions"]
	for id, want := range map[string]string{"1": "2024-10-07", "2": "2024-11-05", "3": "2025-03-26", "4": "2025-11-25", "5": "2025-11-25", "6": "2025-11-25"} {
		if got := str(versions[id], "result.protocolVersion"); got != want {
			t.Errorf("initialize %s negotiated %q, want %q", id, got, want)
		}
	}
	twice := answers["a second initialize is answered like the first"]
	first, _ := json.Marshal(twice["1"]["result"])
	second, _ := json.Marshal(twice["2"]["result"])
	if string(first) != string(second) {
		t.Errorf("second initialize differs:\n%s\n%s", first, second)
	}

	list, _ := answers["tools/list ignores an unknown cursor"]["1"]["result"].(map[string]any)
	if len(list) != 1 || list["tools"] == nil {
		t.Errorf("tools/list result has members beyond tools: %v", keys(list))
	}
	var ref struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	// The reference's tools/list, in its order, as hosts/mcp snapshots it.
	data, err := os.ReadFile("../../hosts/mcp/testdata/reference-surface.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatal(err)
	}
	tools, _ := list["tools"].([]any)
	for i, want := range ref.Tools {
		if i >= len(tools) || str(tools[i], "name") != want.Name {
			t.Fatalf("tool %d is %v, want %s (the reference's order)", i, get(tools, "x"), want.Name)
		}
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestPingWithNullOrArrayParamsIsAnswered(t *testing.T) {
	// A deliberate difference: the reference never answers these.
	s := newSandbox(t)
	byID, _, _ := exchange(t, []string{os.Args[0]}, s.env(), initializeLine,
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":null}`, `{"jsonrpc":"2.0","id":2,"method":"ping","params":[]}`)
	for _, id := range []string{"1", "2"} {
		if byID[id]["result"] == nil {
			t.Errorf("ping %s: %v", id, byID[id])
		}
	}
}

// TestProtocolEdgesMatchTheReference runs every protocol edge case
// against the reference named by COLLAB_REFERENCE_CMD (a command line)
// and requires the same outcome per id, plus the same initialize result
// members and tool order.
func TestProtocolEdgesMatchTheReference(t *testing.T) {
	ref := os.Getenv("COLLAB_REFERENCE_CMD")
	if ref == "" {
		t.Skip("COLLAB_REFERENCE_CMD is unset: set it to the reference 0.4.0 server command to compare protocol edges")
	}
	s := newSandbox(t)
	ours := runEdges(t, []string{os.Args[0]}, s.env())
	theirs := runEdges(t, strings.Fields(ref), s.env("AGENTOOL_COLLAB_DB="+s.db+".reference"))
	compared := 0
	for name, answers := range ours {
		for id, a := range answers {
			b := theirs[name][id]
			if b == nil {
				t.Errorf("%s id %s: the reference did not answer", name, id)
				continue
			}
			if errorCode(a) != errorCode(b) || (a["result"] == nil) != (b["result"] == nil) {
				t.Errorf("%s id %s: ours %v, reference %v", name, id, a, b)
			}
			if pa, pb := str(a, "result.protocolVersion"), str(b, "result.protocolVersion"); pa != pb {
				t.Errorf("%s id %s: protocol version %q, reference %q", name, id, pa, pb)
			}
			ra, _ := a["result"].(map[string]any)
			rb, _ := b["result"].(map[string]any)
			if strings.Join(sortedKeys(ra), ",") != strings.Join(sortedKeys(rb), ",") {
				t.Errorf("%s id %s: result members %v, reference %v", name, id, sortedKeys(ra), sortedKeys(rb))
			}
			compared++
		}
	}
	t.Logf("%d answers compared with the reference", compared)
}

func sortedKeys(m map[string]any) []string {
	out := keys(m)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
