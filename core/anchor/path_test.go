package anchor_test

import (
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/anchor"
)

func TestDefaultLedgerPathFollowsEnvironment(t *testing.T) {
	tail := filepath.Join("agenttool", "collab-zerone-anchors.json")
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"override wins verbatim", map[string]string{
			"AGENTOOL_COLLAB_ANCHOR_LEDGER": "relative/./ledger.json", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"},
			"relative/./ledger.json"},
		{"empty override is ignored", map[string]string{
			"AGENTOOL_COLLAB_ANCHOR_LEDGER": "", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"},
			filepath.Join("/xdg", tail)},
		{"XDG_DATA_HOME", map[string]string{"XDG_DATA_HOME": "/xdg", "HOME": "/home/u"},
			filepath.Join("/xdg", tail)},
		{"relative XDG_DATA_HOME stays relative", map[string]string{"XDG_DATA_HOME": "data", "HOME": "/home/u"},
			filepath.Join("data", tail)},
		{"empty XDG_DATA_HOME falls back to HOME", map[string]string{"XDG_DATA_HOME": "", "HOME": "/home/u"},
			filepath.Join("/home/u", ".local", "share", tail)},
		{"HOME fallback", map[string]string{"HOME": "/home/u"},
			filepath.Join("/home/u", ".local", "share", tail)},
		{"HOME unset gives the literal undefined", map[string]string{},
			filepath.Join("undefined", ".local", "share", tail)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := anchor.DefaultLedgerPath(func(k string) string { return tc.env[k] })
			if got != tc.want {
				t.Fatalf("DefaultLedgerPath = %q, want %q", got, tc.want)
			}
		})
	}
}
