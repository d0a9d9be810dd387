package codex

import (
	"slices"
	"testing"

	"github.com/agenttool/collab/hosts/plugin"
)

func TestForwardKeepsOnlyTheAllowlistAndListedVariables(t *testing.T) {
	user := map[string]string{"HOME": "/h", "PATH": "/bin", "AGENTOOL_COLLAB_DB": "/db", "XDG_DATA_HOME": "/xdg", "SECRET": "s"}
	tests := []struct {
		name    string
		envVars []string
		want    map[string]string
	}{
		{"nothing listed", nil, map[string]string{"HOME": "/h", "PATH": "/bin", "AGENTOOL_COLLAB_HOST": "codex"}},
		{"database listed", []string{"AGENTOOL_COLLAB_DB", "UNSET"}, map[string]string{"HOME": "/h", "PATH": "/bin", "AGENTOOL_COLLAB_DB": "/db", "AGENTOOL_COLLAB_HOST": "codex"}},
	}
	for _, tt := range tests {
		got := Forward(user, Server{EnvVars: tt.envVars, Env: map[string]string{"AGENTOOL_COLLAB_HOST": "codex"}})
		if len(got) != len(tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
		for k, v := range tt.want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", tt.name, k, got[k], v)
			}
		}
	}
}

func TestPluginManifestForwardsEveryServerVariable(t *testing.T) {
	s := PluginManifest().MCPServers[plugin.Server]
	for _, v := range plugin.ServerEnv() {
		if !slices.Contains(s.EnvVars, v) {
			t.Errorf("env_vars lacks %s", v)
		}
	}
	if s.Command != "./"+plugin.Launcher || s.Cwd != "." {
		t.Errorf("command %q cwd %q: Codex resolves both against the plugin root", s.Command, s.Cwd)
	}
}
