package place_test

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/place"
)

func TestPersonCredentialRulePerOS(t *testing.T) {
	home, state, cwd := abs(t, "/home/u"), abs(t, "/state"), abs(t, "/work")
	db := abs(t, "/data/collab.sqlite")
	name := func(db, ws string) string {
		sum := sha256.Sum256([]byte(db + "\x00" + ws))
		return hex.EncodeToString(sum[:12]) + ".json"
	}
	tail := filepath.Join("agenttool", "collab-person")
	cases := []struct {
		name     string
		goos     string
		env      map[string]string
		db, want string
	}{
		{"XDG_STATE_HOME", "linux", map[string]string{"XDG_STATE_HOME": state, "HOME": home}, db, filepath.Join(state, tail, name(db, "ws_1"))},
		{"relative XDG_STATE_HOME stays relative", "linux", map[string]string{"XDG_STATE_HOME": "st"}, db, filepath.Join("st", tail, name(db, "ws_1"))},
		{"empty XDG_STATE_HOME falls back to the home", "darwin", map[string]string{"XDG_STATE_HOME": "", "HOME": home}, db, filepath.Join(home, ".local", "state", tail, name(db, "ws_1"))},
		{"windows home is USERPROFILE", "windows", map[string]string{"USERPROFILE": home}, db, filepath.Join(home, ".local", "state", tail, name(db, "ws_1"))},
		{"a relative database is named by its absolute path", "linux", map[string]string{"HOME": home}, "collab.sqlite",
			filepath.Join(home, ".local", "state", tail, name(filepath.Join(cwd, "collab.sqlite"), "ws_1"))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := place.PersonCredential(place.Map(tc.goos, tc.env, cwd), tc.db, "ws_1")
			if err != nil || got != tc.want {
				t.Fatalf("PersonCredential = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := place.PersonCredential(place.Map("linux", nil, cwd), db, "ws_1"); err == nil {
		t.Fatal("PersonCredential without XDG_STATE_HOME or HOME succeeded, want an error")
	}
	a, _ := place.PersonCredential(place.Map("linux", map[string]string{"HOME": home}, cwd), db, "ws_1")
	b, _ := place.PersonCredential(place.Map("linux", map[string]string{"HOME": home}, cwd), db, "ws_2")
	if a == b {
		t.Fatal("two workspaces of one database share a person credential")
	}
}
