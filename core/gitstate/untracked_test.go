package gitstate

import (
	"bytes"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// untrackedTree creates a directory with the entries the digest tests list.
func untrackedTree(t *testing.T) string {
	t.Helper()
	d := tempDir(t)
	for name, mode := range map[string]os.FileMode{"a.txt": 0o644, "bin/run": 0o755, "dir/b.txt": 0o600} {
		p := filepath.Join(d, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("content of "+name), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.txt", filepath.Join(d, "link")); err != nil {
		t.Fatal(err)
	}
	return d
}

func listing(names ...string) []byte {
	if len(names) == 0 {
		return nil
	}
	return []byte(strings.Join(names, "\x00") + "\x00")
}

func TestUntrackedDigestOfNothingMatchesContractVector(t *testing.T) {
	want := loadVectors(t).EmptyUntrackedDigest
	got, ok := untrackedDigest(tempDir(t), nil, Limits{}.withDefaults(), time.Now())
	if !ok || hex.EncodeToString(got[:]) != want {
		t.Fatalf("got %x ok=%v, want %s", got, ok, want)
	}
}

func TestUntrackedDigestMatchesIndependentDerivation(t *testing.T) {
	d := untrackedTree(t)
	l := listing("a.txt", "bin/run", "dir/b.txt", "link")
	got, ok := untrackedDigest(d, l, Limits{}.withDefaults(), time.Now())
	if want := wantUntracked(t, d, l); !ok || !bytes.Equal(got[:], want) {
		t.Fatalf("got %x ok=%v, want %x", got, ok, want)
	}
	reordered, _ := untrackedDigest(d, listing("bin/run", "a.txt", "dir/b.txt", "link"), Limits{}.withDefaults(), time.Now())
	if reordered == got {
		t.Fatal("the digest must follow the listing order")
	}
}

func TestUntrackedDigestIsNullForEntriesItCannotHash(t *testing.T) {
	d := untrackedTree(t)
	cases := []struct {
		name    string
		listing []byte
	}{
		{"missing final NUL", []byte("a.txt")},
		{"empty entry", []byte("a.txt\x00\x00")},
		{"absolute path", listing(filepath.Join(d, "a.txt"))},
		{"dot-dot component", listing("dir/../a.txt")},
		{"dot component", listing("./a.txt")},
		{"empty component", listing("dir//b.txt")},
		{"nested repository shown as dir/", listing("dir/")},
		{"directory", listing("dir")},
		{"vanished file", listing("a.txt", "gone")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := untrackedDigest(d, c.listing, Limits{}.withDefaults(), time.Now()); ok {
				t.Fatal("want no digest")
			}
		})
	}
}

// TestUntrackedNamesAreReadAsJavaScriptStrings pins the assumption that the
// reference turns each listed name into a string before using it: a name
// that is not UTF-8 is looked up under its U+FFFD-replaced spelling.
func TestUntrackedNamesAreReadAsJavaScriptStrings(t *testing.T) {
	d := tempDir(t)
	if err := os.WriteFile(filepath.Join(d, "bad\xff"), []byte("x"), 0o644); err != nil {
		t.Skip("file system refuses non-UTF-8 names")
	}
	if _, ok := untrackedDigest(d, listing("bad\xff"), Limits{}.withDefaults(), time.Now()); ok {
		t.Fatal("a non-UTF-8 name resolves to a missing file, so no digest")
	}
	if err := os.WriteFile(filepath.Join(d, "bad\uFFFD"), []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, ok := untrackedDigest(d, listing("bad\xff"), Limits{}.withDefaults(), time.Now())
	want, _ := untrackedDigest(d, listing("bad\uFFFD"), Limits{}.withDefaults(), time.Now())
	if !ok || got != want {
		t.Fatal("the replaced spelling must be hashed")
	}
}

func TestUntrackedDigestBounds(t *testing.T) {
	d := untrackedTree(t)
	all := listing("a.txt", "bin/run", "link")
	size := func(name string) int64 {
		info, err := os.Stat(filepath.Join(d, name))
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	a, run, target := size("a.txt"), size("bin/run"), int64(len("a.txt"))
	cases := []struct {
		name   string
		limits Limits
		ok     bool
	}{
		{"paths at the bound", Limits{MaxUntrackedPaths: 3}, true},
		{"one path over", Limits{MaxUntrackedPaths: 2}, false},
		{"bytes at the bound", Limits{MaxUntrackedBytes: a + run + target}, true},
		{"one byte over, in the symlink target", Limits{MaxUntrackedBytes: a + run + target - 1}, false},
		{"budget smaller than the first file", Limits{MaxUntrackedBytes: a - 1}, false},
		{"deadline passed", Limits{UntrackedDeadline: -1}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := untrackedDigest(d, all, c.limits.withDefaults(), time.Now()); ok != c.ok {
				t.Fatalf("ok=%v, want %v", ok, c.ok)
			}
		})
	}
	if _, ok := untrackedDigest(d, nil, Limits{UntrackedDeadline: -1}.withDefaults(), time.Now()); !ok {
		t.Fatal("an empty listing needs no time and always has a digest")
	}
}

func TestUntrackedDigestContractBounds(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		paths int
		ok    bool
	}{{MaxUntrackedPaths, true}, {MaxUntrackedPaths + 1, false}} {
		l := listing(strings.Split(strings.Repeat("f ", c.paths-1)+"f", " ")...)
		if _, ok := splitListing(l, Limits{}.withDefaults().MaxUntrackedPaths); ok != c.ok {
			t.Fatalf("%d paths: ok=%v, want %v", c.paths, ok, c.ok)
		}
	}
	d := tempDir(t)
	f, err := os.Create(filepath.Join(d, "big"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct {
		size int64
		ok   bool
	}{{MaxUntrackedBytes + 1, false}, {0, true}} {
		if err := f.Truncate(c.size); err != nil {
			t.Fatal(err)
		}
		if _, ok := untrackedDigest(d, listing("big"), Limits{}.withDefaults(), time.Now()); ok != c.ok {
			t.Fatalf("%d bytes: ok=%v, want %v", c.size, ok, c.ok)
		}
	}
}
