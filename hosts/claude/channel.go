package claude

import (
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/plugin"
)

// ChannelVariable turns the server's claude/channel capability on (it is
// hosts/mcp.ChannelEnv; a test keeps the two equal). The plugin's server
// entry sets it, since only Claude Code reads channel notifications; the
// server is off without it, for every other host and for a bare run.
const ChannelVariable = place.EnvChannel

// Channel is one entry of the manifest's channels list: it names the
// mcpServers entry that may push messages into a session. Claude Code
// registers it only when the user starts a session with
// `--channels plugin:<plugin>@<marketplace>` (or the development variant)
// and its own server-side gate is open; otherwise the capability and the
// notifications are ignored.
type Channel struct {
	Server      string `json:"server"`
	DisplayName string `json:"displayName,omitempty"`
}

// Channels returns the plugin's one channel: its MCP server.
func Channels() []Channel {
	return []Channel{{Server: plugin.Server, DisplayName: "collab coordination"}}
}
