package place_test

import (
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/place"
)

func TestAnchorLedgerRulePerOS(t *testing.T) {
	tail := filepath.Join("agenttool", "collab-zerone-anchors.json")
	cases := []struct {
		name string
		goos string
		env  map[string]string
		want string
	}{
		{"override wins verbatim", "linux", map[string]string{
			"AGENTOOL_COLLAB_ANCHOR_LEDGER": "relative/./ledger.json", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"},
			"relative/./ledger.json"},
		{"empty override is ignored", "linux", map[string]string{
			"AGENTOOL_COLLAB_ANCHOR_LEDGER": "", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"},
			filepath.Join("/xdg", tail)},
		{"XDG_DATA_HOME", "darwin", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/home/u"},
			filepath.Join("/xdg", tail)},
		{"trailing slash on XDG_DATA_HOME is cleaned", "linux", map[string]string{"XDG_DATA_HOME": "/xdg/"},
			filepath.Join("/xdg", tail)},
		{"relative XDG_DATA_HOME stays relative", "linux", map[string]string{"XDG_DATA_HOME": "data", "HOME": "/home/u"},
			filepath.Join("data", tail)},
		{"empty XDG_DATA_HOME falls back to HOME", "linux", map[string]string{"XDG_DATA_HOME": "", "HOME": "/home/u"},
			filepath.Join("/home/u", ".local", "share", tail)},
		{"HOME fallback", "darwin", map[string]string{"HOME": "/home/u"},
			filepath.Join("/home/u", ".local", "share", tail)},
		{"windows reads HOME too, never USERPROFILE", "windows", map[string]string{"HOME": "/home/u", "USERPROFILE": "/profile"},
			filepath.Join("/home/u", ".local", "share", tail)},
		{"HOME unset gives the literal undefined", "linux", map[string]string{},
			filepath.Join("undefined", ".local", "share", tail)},
		{"HOME unset on windows gives undefined despite USERPROFILE", "windows", map[string]string{"USERPROFILE": "/profile"},
			filepath.Join("undefined", ".local", "share", tail)},
		{"empty HOME gives undefined too", "linux", map[string]string{"HOME": ""},
			filepath.Join("undefined", ".local", "share", tail)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := place.AnchorLedger(place.Map(tc.goos, tc.env, "/work"))
			if got != tc.want {
				t.Fatalf("AnchorLedger = %q, want %q", got, tc.want)
			}
		})
	}
}
