package claude

import "testing"

func TestForwardPassesEverythingAndExpandsThePluginRoot(t *testing.T) {
	user := map[string]string{"AGENTOOL_COLLAB_DB": "/shared.sqlite", "XDG_DATA_HOME": "/xdg", "SECRET": "s"}
	s := Server{Env: map[string]string{"AGENTOOL_COLLAB_HOST": "claude-code", "LEDGER": "${CLAUDE_PLUGIN_ROOT}/ledger.json"}}
	got := Forward(user, "/plugins/collab", s)
	want := map[string]string{
		"AGENTOOL_COLLAB_DB": "/shared.sqlite", "XDG_DATA_HOME": "/xdg", "SECRET": "s",
		"CLAUDE_PLUGIN_ROOT": "/plugins/collab", "AGENTOOL_COLLAB_HOST": "claude-code", "LEDGER": "/plugins/collab/ledger.json",
	}
	if len(got) != len(want) {
		t.Errorf("got %v", got)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
	if _, ok := user["CLAUDE_PLUGIN_ROOT"]; ok {
		t.Error("Forward changed the caller's map")
	}
}

func TestPluginManifestLaunchesThroughThePluginRoot(t *testing.T) {
	m := PluginManifest()
	if len(m.MCPServers) != 1 {
		t.Fatalf("want one server, got %v", m.MCPServers)
	}
	for _, s := range m.MCPServers {
		if s.Command != "${CLAUDE_PLUGIN_ROOT}/bin/agenttool-collab-mcp" {
			t.Errorf("command %q does not start from the plugin root", s.Command)
		}
		if _, ok := s.Env["AGENTOOL_COLLAB_DB"]; ok {
			t.Error("the manifest must not pin the database; Claude Code passes the user's")
		}
	}
}
