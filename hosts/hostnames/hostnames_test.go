package hostnames_test

import (
	"testing"

	"github.com/agenttool/collab/hosts/hostnames"
	"github.com/agenttool/collab/hosts/mcp"
	"github.com/agenttool/collab/hosts/plugin"
)

func toolNames() []string {
	var names []string
	for _, d := range mcp.Definitions() {
		names = append(names, d.Name)
	}
	return names
}

func TestQualifyFollowsEachHostsPattern(t *testing.T) {
	schemes := hostnames.Schemes("my-plugin", "my-server.v2")
	want := map[hostnames.Host]string{
		hostnames.Claude:       "mcp__plugin_my-plugin_my-server_v2__collab_next",
		hostnames.Codex:        "mcp__my_server_v2__collab_next",
		hostnames.Hermes:       "mcp__my-server_v2__collab_next",
		hostnames.HermesLegacy: "mcp_my_server_v2_collab_next",
	}
	if len(schemes) != len(want) {
		t.Fatalf("got %d schemes, want %d", len(schemes), len(want))
	}
	for _, s := range schemes {
		if got := s.Qualify("collab_next"); got != want[s.Host] {
			t.Errorf("%s: got %q, want %q", s.Host, got, want[s.Host])
		}
	}
}

func TestCodexNamespaceReplacesHyphens(t *testing.T) {
	if got := hostnames.CodexNamespace("agenttool-collab"); got != "mcp__agenttool_collab" {
		t.Errorf("got %q", got)
	}
}

// The reference named both plugin and server "agenttool-collab"; under
// Claude Code that pushes 25 of the 32 tools past the limit.
func TestReferenceNamesOverflowUnderClaude(t *testing.T) {
	schemes := hostnames.Schemes("agenttool-collab", "agenttool-collab")
	var claude int
	// The reference's 32 come first in tools/list; the extensions follow.
	for _, n := range hostnames.Overlong(schemes, toolNames()[:32]) {
		if n.Host == hostnames.Claude {
			claude++
		}
	}
	if claude != 25 {
		t.Errorf("%d tools overflow under Claude Code with the reference's names, want 25", claude)
	}
	longest := hostnames.Longest(schemes, toolNames()[:32])[0]
	if longest.Tool != "collab_session_heartbeat" || longest.Len() != 71 {
		t.Errorf("longest Claude name is %q (%d)", longest.Qualified, longest.Len())
	}
}

func TestEveryToolFitsUnderEveryHost(t *testing.T) {
	tools := toolNames()
	if len(tools) < 32 {
		t.Fatalf("the MCP face defines %d tools, want the reference's 32 plus any extensions", len(tools))
	}
	schemes := hostnames.Schemes(plugin.Name, plugin.Server)
	for _, n := range hostnames.Overlong(schemes, tools) {
		t.Errorf("%s: %s is %d characters, over %d; shorten plugin.Name or plugin.Server", n.Host, n.Qualified, n.Len(), hostnames.Limit)
	}
	for _, n := range hostnames.Longest(schemes, tools) {
		t.Logf("%-13s longest %2d  %s", n.Host, n.Len(), n.Qualified)
	}
}

func TestQualifiedNamesAreUniquePerHost(t *testing.T) {
	schemes := hostnames.Schemes(plugin.Name, plugin.Server)
	seen := map[string]string{}
	for _, row := range hostnames.Table(schemes, toolNames()) {
		for _, n := range row.Names {
			key := string(n.Host) + " " + n.Qualified
			if other, ok := seen[key]; ok {
				t.Errorf("%s: %s and %s both become %s", n.Host, other, n.Tool, n.Qualified)
			}
			seen[key] = n.Tool
		}
	}
}
