package place

import "path/filepath"

// ledgerName is the anchor ledger's file name inside <data home>/agenttool.
const ledgerName = "collab-zerone-anchors.json"

// AnchorLedger returns the anchor ledger path the host selects (the MCP
// caller can neither choose nor see it):
//
//  1. AGENTOOL_COLLAB_ANCHOR_LEDGER when non-empty, verbatim;
//  2. else $XDG_DATA_HOME/agenttool/collab-zerone-anchors.json when
//     XDG_DATA_HOME is non-empty (a relative value stays relative);
//  3. else $HOME/.local/share/agenttool/collab-zerone-anchors.json.
//
// Unlike the database default this reads HOME on every OS, Windows
// included, because the reference builds it from a string template; when
// HOME is unset that template yields the literal relative folder
// "undefined", and so does this rule. Deliberate difference: an empty HOME
// also gives "undefined/..." where the reference would give "/.local/...".
// Paths are joined with filepath.Join, so redundant separators are
// cleaned; the file named is the same.
func AnchorLedger(env Env) string {
	if p := env.Get(EnvAnchorLedger); p != "" {
		return p
	}
	if xdg := env.Get(EnvXDGData); xdg != "" {
		return filepath.Join(xdg, dataFolder, ledgerName)
	}
	home := env.Get(EnvHome)
	if home == "" {
		home = "undefined"
	}
	return filepath.Join(home, ".local", "share", dataFolder, ledgerName)
}
