//go:build unix

package search_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/search"
)

// TestAnUnsafeSidecarPathIsRefusedAndLeftAlone plants, at the sidecar's
// path or its journal's, something that is not a private regular file of
// this user. Opening the index, or searching an index whose file was
// swapped for it, must refuse with database_sidecar_unsafe and leave the
// victim file exactly as it was, bytes and mode.
func TestAnUnsafeSidecarPathIsRefusedAndLeftAlone(t *testing.T) {
	victimBytes := []byte("a file of the user's that must not change\n")
	cases := []struct {
		name  string
		plant func(t *testing.T, sidecar, victim string)
		// swap plants after the index was opened and used once.
		swap bool
		// empty makes the victim an empty file, which SQLite would
		// happily turn into a database.
		empty bool
	}{
		{"symlink to an empty file", func(t *testing.T, sidecar, victim string) { must(t, os.Symlink(victim, sidecar)) }, false, true},
		{"symlink to a file", func(t *testing.T, sidecar, victim string) { must(t, os.Symlink(victim, sidecar)) }, false, false},
		{"dangling symlink", func(t *testing.T, sidecar, victim string) {
			must(t, os.Symlink(victim+".absent", sidecar))
		}, false, false},
		{"hard link to a file", func(t *testing.T, sidecar, victim string) { must(t, os.Link(victim, sidecar)) }, false, false},
		{"directory", func(t *testing.T, sidecar, victim string) { must(t, os.Mkdir(sidecar, 0o700)) }, false, false},
		{"symlinked journal", func(t *testing.T, sidecar, victim string) { must(t, os.Symlink(victim, sidecar+"-journal")) }, false, false},
		{"symlink swapped in while open", func(t *testing.T, sidecar, victim string) {
			must(t, os.Remove(sidecar))
			must(t, os.Symlink(victim, sidecar))
		}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newLegacyWorld(t)
			w.task(t, "ann", "omicron")
			victim := filepath.Join(t.TempDir(), "victim")
			want := victimBytes
			if c.empty {
				want = nil
			}
			must(t, os.WriteFile(victim, want, 0o644))
			must(t, os.Chmod(victim, 0o644))
			sidecar := w.path + ".search"
			var err error
			if c.swap {
				ix := openIndex(t, w.st)
				hitCount(t, ix, w.ws, "omicron")
				c.plant(t, sidecar, victim)
				_, err = ix.Search(context.Background(), search.Query{Text: "omicron"})
			} else {
				c.plant(t, sidecar, victim)
				var ix *search.Index
				ix, err = search.Open(context.Background(), w.st)
				if err == nil {
					_, err = ix.Search(context.Background(), search.Query{Text: "omicron"})
					ix.Close()
				}
			}
			if !collaberr.HasCode(err, collaberr.DatabaseSidecarUnsafe) {
				t.Errorf("got %v, want database_sidecar_unsafe", err)
			}
			info, statErr := os.Stat(victim)
			got, readErr := os.ReadFile(victim)
			if statErr != nil || readErr != nil {
				t.Fatalf("victim gone: %v %v", statErr, readErr)
			}
			if info.Mode().Perm() != 0o644 {
				t.Errorf("victim's mode changed to %v", info.Mode().Perm())
			}
			if !bytes.Equal(got, want) {
				t.Errorf("victim's bytes changed: %d bytes now", len(got))
			}
			if _, err := os.Lstat(victim + ".absent"); err == nil {
				t.Error("a file was created through a dangling symlink")
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
