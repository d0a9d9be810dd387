package hermes

import "testing"

func TestForwardFiltersToTheSafeSetPlusTheEntry(t *testing.T) {
	user := map[string]string{
		"HOME": "/home/me", "PATH": "/bin", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state",
		"AGENTOOL_COLLAB_DB": "/shell.sqlite", "AGENTOOL_COLLAB_ANCHOR_LEDGER": "/ledger.json", "SECRET_TOKEN": "x",
	}
	e := Entry{Env: []Var{{"AGENTOOL_COLLAB_DB", "${HOME}/entry.sqlite"}, {"AGENTOOL_COLLAB_HOST", "hermes"}, {"EMPTY", "${UNSET}"}}}
	got := Forward(user, e)
	want := map[string]string{
		"HOME": "/home/me", "PATH": "/bin", "XDG_DATA_HOME": "/data", "XDG_STATE_HOME": "/state",
		"AGENTOOL_COLLAB_DB": "/home/me/entry.sqlite", "AGENTOOL_COLLAB_HOST": "hermes", "EMPTY": "",
	}
	if len(got) != len(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			t.Errorf("%s = %q (set %v), want %q", k, g, ok, v)
		}
	}
}
