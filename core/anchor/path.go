package anchor

import "path/filepath"

// EnvLedger names the environment variable that overrides the ledger path.
const EnvLedger = "AGENTOOL_COLLAB_ANCHOR_LEDGER"

// ledgerFileName is the ledger's file name inside <data home>/agenttool.
const ledgerFileName = "collab-zerone-anchors.json"

// DefaultLedgerPath returns the ledger path the host selects, reading the
// environment through getenv on every call:
//
//  1. AGENTOOL_COLLAB_ANCHOR_LEDGER when non-empty, verbatim;
//  2. else $XDG_DATA_HOME/agenttool/collab-zerone-anchors.json when
//     XDG_DATA_HOME is non-empty (a relative value stays relative);
//  3. else $HOME/.local/share/agenttool/collab-zerone-anchors.json.
//
// When HOME is unset the reference's string template yields the literal
// relative component "undefined", and so does this function. Deliberate
// difference: getenv cannot tell an empty HOME from an unset one, so an
// empty HOME also gives "undefined/..." where the reference would give
// "/.local/...". Paths are joined with filepath.Join, so redundant
// separators are cleaned; the file named is the same.
func DefaultLedgerPath(getenv func(string) string) string {
	if p := getenv(EnvLedger); p != "" {
		return p
	}
	if xdg := getenv("XDG_DATA_HOME"); xdg != "" {
		return filepath.Join(xdg, "agenttool", ledgerFileName)
	}
	home := getenv("HOME")
	if home == "" {
		home = "undefined"
	}
	return filepath.Join(home, ".local", "share", "agenttool", ledgerFileName)
}
