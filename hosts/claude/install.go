package claude

import "github.com/agenttool/collab/hosts/plugin"

// PluginID is how Claude Code names the installed plugin.
const PluginID = plugin.Name + "@" + plugin.Marketplace

// InstallCommands returns the Claude Code commands that install the plugin
// from a marketplace source: a directory holding MarketplacePath (such as
// the npm package root) or a GitHub "owner/repo".
func InstallCommands(source string) [][]string {
	return [][]string{
		{"claude", "plugin", "marketplace", "add", source},
		{"claude", "plugin", "install", PluginID},
	}
}

// UninstallCommands returns the Claude Code commands that remove the
// plugin and its marketplace again.
func UninstallCommands() [][]string {
	return [][]string{
		{"claude", "plugin", "uninstall", PluginID},
		{"claude", "plugin", "marketplace", "remove", plugin.Marketplace},
	}
}
