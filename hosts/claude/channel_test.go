package claude

import (
	"testing"

	"github.com/agenttool/collab/hosts/mcp"
	"github.com/agenttool/collab/hosts/plugin"
)

func TestThePluginServerTurnsTheChannelOnAndDeclaresIt(t *testing.T) {
	if ChannelVariable != mcp.ChannelEnv {
		t.Fatalf("ChannelVariable %q differs from the server's %q", ChannelVariable, mcp.ChannelEnv)
	}
	m := PluginManifest()
	on, err := mcp.ChannelEnabled(m.MCPServers[plugin.Server].Env[ChannelVariable])
	if err != nil || !on {
		t.Fatalf("the plugin's server entry does not turn the channel on: %v %v", m.MCPServers[plugin.Server].Env, err)
	}
	if len(m.Channels) != 1 || m.Channels[0].Server != plugin.Server {
		t.Fatalf("channels %+v must name the server entry %q", m.Channels, plugin.Server)
	}
	if _, ok := m.MCPServers[m.Channels[0].Server]; !ok {
		t.Fatalf("the channel names no mcpServers entry")
	}
}
