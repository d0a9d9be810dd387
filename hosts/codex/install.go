package codex

import "github.com/agenttool/collab/hosts/plugin"

// PluginID is how Codex names the installed plugin.
const PluginID = plugin.Name + "@" + plugin.Marketplace

// InstallCommands returns the Codex commands that install the plugin from a
// marketplace source: a directory holding MarketplacePath (such as the npm
// package root) or a GitHub "owner/repo".
func InstallCommands(source string) [][]string {
	return [][]string{
		{"codex", "plugin", "marketplace", "add", source},
		{"codex", "plugin", "add", PluginID},
	}
}

// UninstallCommands returns the Codex commands that remove the plugin and
// its marketplace again.
func UninstallCommands() [][]string {
	return [][]string{
		{"codex", "plugin", "remove", PluginID},
		{"codex", "plugin", "marketplace", "remove", plugin.Marketplace},
	}
}
