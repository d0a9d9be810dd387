package gitstate

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// captureBoth captures root through Inspect+Capture and through
// InspectAndCapture, requires both to agree apart from captured_at, and
// returns the second.
func captureBoth(t *testing.T, root string, l Limits) Checkpoint {
	t.Helper()
	ctx := context.Background()
	id, err := Inspect(ctx, root, "")
	if err != nil {
		t.Fatal(err)
	}
	separate := CaptureWith(ctx, id, l)
	id2, combined, err := InspectAndCaptureWith(ctx, root, "", l)
	if err != nil {
		t.Fatal(err)
	}
	if id2.WorktreeID != id.WorktreeID {
		t.Fatalf("identities differ: %+v vs %+v", id, id2)
	}
	a, b := separate.Map(), combined.Map()
	delete(a, "captured_at")
	delete(b, "captured_at")
	if len(a) != len(b) {
		t.Fatalf("Capture %v, InspectAndCapture %v", a, b)
	}
	for k, v := range a {
		if b[k] != v {
			t.Fatalf("%s: Capture %v, InspectAndCapture %v", k, v, b[k])
		}
	}
	return combined
}

func str(p *string) string {
	if p == nil {
		return "<null>"
	}
	return *p
}

func TestCaptureMatchesIndependentDerivation(t *testing.T) {
	t.Parallel()
	r := smallRepo(t)
	r.write("README.md", "changed\n", 0o644)
	head := strings.TrimSpace(string(r.git("rev-parse", "HEAD")))
	index, state := wantDigests(t, r.dir)
	for _, root := range []string{r.dir, r.path("src")} {
		before := time.Now().Add(-time.Millisecond)
		cp := captureBoth(t, root, Limits{})
		if str(cp.HeadSHA) != head || str(cp.Branch) != "main" || cp.Dirty == nil || !*cp.Dirty {
			t.Fatalf("head %s branch %s dirty %v", str(cp.HeadSHA), str(cp.Branch), cp.Dirty)
		}
		if cp.Digests == nil || str(cp.Digests.IndexSHA256) != index || str(cp.Digests.StateSHA256) != state {
			t.Fatalf("digests %+v, want index %s state %s", cp.Digests, index, state)
		}
		at, err := time.Parse(capturedAtLayout, cp.CapturedAt)
		if err != nil || at.Before(before.Truncate(time.Millisecond)) || at.After(time.Now()) {
			t.Fatalf("captured_at %q is not the current UTC time", cp.CapturedAt)
		}
	}
}

func TestCaptureOfRootsWithoutHeadIsReduced(t *testing.T) {
	t.Parallel()
	unborn := newRepo(t)
	unborn.write("f", "x", 0o644)
	for name, root := range map[string]string{"repository without commits": unborn.dir,
		"non-Git directory": outsideWorktree(t)} {
		t.Run(name, func(t *testing.T) {
			cp := captureBoth(t, root, Limits{})
			if cp.Digests != nil || cp.HeadSHA != nil || cp.Branch != nil || cp.Dirty != nil {
				t.Fatalf("want the reduced form, got %+v", cp)
			}
			if m := cp.Map(); len(m) != 5 {
				t.Fatalf("reduced form has keys %v", m)
			}
		})
	}
}

func TestDetachedHeadHasNoBranch(t *testing.T) {
	t.Parallel()
	r := smallRepo(t)
	r.git("checkout", "-q", "--detach")
	cp := captureBoth(t, r.dir, Limits{})
	if cp.Branch != nil || cp.HeadSHA == nil {
		t.Fatalf("branch %s head %s", str(cp.Branch), str(cp.HeadSHA))
	}
}

func TestDirtyReflectsStatus(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(*repo)
		dirty  bool
	}{
		{"clean", func(*repo) {}, false},
		{"ignored file only", func(r *repo) { r.write("x.log", "x", 0o644) }, false},
		{"tracked change", func(r *repo) { r.write("f", "changed", 0o644) }, true},
		{"staged change", func(r *repo) { r.write("f", "staged", 0o644); r.git("add", "f") }, true},
		{"untracked file", func(r *repo) { r.write("new", "x", 0o644) }, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t)
			r.write(".gitignore", "*.log\n", 0o644)
			r.write("f", "x", 0o644)
			r.commit()
			c.change(r)
			_, cp, err := InspectAndCapture(context.Background(), r.dir, "")
			if err != nil {
				t.Fatal(err)
			}
			if cp.Dirty == nil || *cp.Dirty != c.dirty {
				t.Fatalf("dirty %v, want %v", cp.Dirty, c.dirty)
			}
		})
	}
}

// TestStateDigestFollowsEveryChange applies changes one after another; each
// must give a state digest not seen before and equal to the independent
// derivation, while recapturing without a change repeats the digest.
func TestStateDigestFollowsEveryChange(t *testing.T) {
	t.Parallel()
	r := smallRepo(t)
	baseline := captureBoth(t, r.dir, Limits{})
	steps := []struct {
		name       string
		change     func()
		indexMoves bool
	}{
		{"nothing (recapture)", func() {}, false},
		{"untracked content", func() { r.write("notes/todo.txt", "buy bread\n", 0o644) }, false},
		{"untracked executable bit", func() { r.write("notes/todo.txt", "buy bread\n", 0o755) }, false},
		{"untracked symlink target", func() { r.symlink("tools/readme", "../src/a.go") }, false},
		{"tracked content", func() { r.write("src/a.go", "package a // edited\n", 0o644) }, false},
		{"tracked content staged", func() { r.git("add", "src/a.go") }, true},
		{"tracked executable bit", func() { r.write("README.md", "hello\n", 0o755) }, false},
	}
	seen := map[string]string{}
	lastIndex := str(baseline.Digests.IndexSHA256)
	for i, s := range steps {
		s.change()
		_, cp, err := InspectAndCapture(context.Background(), r.dir, "")
		if err != nil {
			t.Fatal(err)
		}
		index, state := wantDigests(t, r.dir)
		got := str(cp.Digests.StateSHA256)
		if got != state || str(cp.Digests.IndexSHA256) != index {
			t.Fatalf("%s: state %s index %s, want %s %s", s.name, got, str(cp.Digests.IndexSHA256), state, index)
		}
		if i == 0 && got != str(baseline.Digests.StateSHA256) {
			t.Fatal("recapture without a change must repeat the state digest")
		}
		if prev, dup := seen[got]; dup {
			t.Fatalf("%s: state digest equals the one after %q", s.name, prev)
		}
		seen[got] = s.name
		if (index != lastIndex) != s.indexMoves {
			t.Fatalf("%s: index digest moved=%v", s.name, index != lastIndex)
		}
		lastIndex = index
	}
}

func mustInspect(t *testing.T, root string) Identity {
	t.Helper()
	id, err := Inspect(context.Background(), root, "")
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestBoundsAndUnhashableEntriesNullTheStateDigestOnly(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		limits Limits
		change func(*repo)
	}{
		{"too many untracked paths", Limits{MaxUntrackedPaths: 3}, func(*repo) {}},
		{"too many untracked bytes", Limits{MaxUntrackedBytes: 8}, func(*repo) {}},
		{"deadline passed", Limits{UntrackedDeadline: -1}, func(*repo) {}},
		{"nested repository", Limits{}, func(r *repo) {
			runGit(t, "", "init", "-q", r.path("nested"))
			r.write("nested/f", "x", 0o644)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := smallRepo(t)
			c.change(r)
			cp := captureBoth(t, r.dir, c.limits)
			if cp.Digests == nil || cp.Digests.StateSHA256 != nil || cp.Digests.IndexSHA256 == nil ||
				cp.Dirty == nil || !*cp.Dirty || cp.HeadSHA == nil {
				t.Fatalf("want only state_sha256 null, got %v", cp.Map())
			}
		})
	}
}

func TestOutputOverTheCapFailsThatCall(t *testing.T) {
	t.Parallel()
	r := smallRepo(t)
	status := r.git("status", "--porcelain=v1", "-z", "--untracked-files=all")
	index := r.git("ls-files", "-s", "-z")
	// The cap must sit above the one rev-parse that learns the top level,
	// the Git directories and HEAD. Its output holds the repository's path
	// three times, so a long TMPDIR (macOS: /var/folders/xy/…/T/) can make
	// it longer than the small fixture's listings; staged files with long
	// names grow those past it.
	located := len(r.git(batchArgs(true, "--show-toplevel", "--git-common-dir", "--git-dir")...))
	for i := 0; min(len(status), len(index)) <= located+64; i++ {
		r.write(fmt.Sprintf("padding/%03d-%s", i, strings.Repeat("x", 100)), "p\n", 0o644)
		r.git("add", "padding")
		status = r.git("status", "--porcelain=v1", "-z", "--untracked-files=all")
		index = r.git("ls-files", "-s", "-z")
	}
	limit := min(len(status), len(index)) - 1
	if limit < len("0123456789012345678901234567890123456789\n") {
		t.Fatalf("fixture too small: status %d bytes, index %d bytes", len(status), len(index))
	}
	// HEAD and the branch fit under the cap; status and the index listing do not.
	_, cp, err := InspectAndCaptureWith(context.Background(), r.dir, "", Limits{GitOutputLimit: limit})
	if err != nil {
		t.Fatal(err)
	}
	if cp.HeadSHA == nil || cp.Branch == nil || cp.Dirty != nil || cp.Digests == nil ||
		cp.Digests.IndexSHA256 != nil || cp.Digests.StateSHA256 != nil {
		t.Fatalf("got %v", cp.Map())
	}
}

func TestInspectAndCaptureReportsAnEndedContext(t *testing.T) {
	t.Parallel()
	r := smallRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := InspectAndCapture(ctx, r.dir, ""); err == nil {
		t.Fatal("want the context's error")
	}
	if _, err := os.Stat(r.dir); err != nil {
		t.Fatal(err)
	}
}
