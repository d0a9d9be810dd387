//go:build unix

package fileowner

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckPrivateNamesTheFirstRuleBroken(t *testing.T) {
	dir := t.TempDir()
	private := touch(t, filepath.Join(dir, "private"))
	open := touch(t, filepath.Join(dir, "open"))
	os.Chmod(open, 0o604)
	link := filepath.Join(dir, "link")
	os.Symlink(private, link)
	linked := touch(t, filepath.Join(dir, "linked"))
	os.Link(linked, filepath.Join(dir, "linked-too"))
	cases := []struct {
		path string
		want Fault
	}{
		{private, Private}, {open, OpenToOthers}, {link, Symlink}, {dir, NotRegular}, {linked, Linked},
	}
	if os.Getuid() == 0 {
		theirs := touch(t, filepath.Join(dir, "theirs"))
		os.Lchown(theirs, 4242, 4242)
		cases = append(cases, struct {
			path string
			want Fault
		}{theirs, NotMine})
	}
	for _, c := range cases {
		if got := CheckPrivate(lstat(t, c.path)); got != c.want {
			t.Errorf("%s: %v, want %v", filepath.Base(c.path), got, c.want)
		}
	}
}

func TestEveryFaultSaysItselfInDistinctWords(t *testing.T) {
	seen := map[string]Fault{}
	for f := Private; f <= Linked; f++ {
		s := f.String()
		if prev, dup := seen[s]; dup || s == "" {
			t.Errorf("%d says %q, as %d does", f, s, prev)
		}
		seen[s] = f
	}
}
