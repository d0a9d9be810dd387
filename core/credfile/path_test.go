package credfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/credfile"
)

func TestPathForPlacesFileBesideAbsoluteDatabase(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	// Abs adds the volume name on Windows; on Unix it leaves the path as is.
	root, err := filepath.Abs(filepath.Join(string(filepath.Separator), "data", "agenttool"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		db, id, want string
	}{
		{filepath.Join(root, "collab.sqlite"), "session_1", filepath.Join(root, "collab-sessions", "session_1.json")},
		{"collab.sqlite", "session_2", filepath.Join(wd, "collab-sessions", "session_2.json")},
		{filepath.Join("rel", "x.db"), "session_3", filepath.Join(wd, "rel", "collab-sessions", "session_3.json")},
	}
	for _, tc := range cases {
		got, err := credfile.PathFor(tc.db, tc.id)
		if err != nil || got != tc.want {
			t.Fatalf("PathFor(%q, %q) = %q, %v; want %q", tc.db, tc.id, got, err, tc.want)
		}
	}
}

func TestPathForRefusesInMemoryDatabase(t *testing.T) {
	_, err := credfile.PathFor(":memory:", "session_1")
	requireRefusal(t, err, credfile.CodePathRequired, "", "")
}

func TestPathForRefusesSessionIDsThatLeaveTheDirectory(t *testing.T) {
	for _, id := range []string{"", ".", "..", "../escape", "a/b", `a\b`, "nul\x00byte"} {
		_, err := credfile.PathFor("/tmp/collab.sqlite", id)
		requireRefusal(t, err, credfile.CodeInvalidSessionID, "", "")
	}
}
