package gitstate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oddRoots builds directories covering every shape rev-parse answers
// differently for, keyed by a description.
func oddRoots(t *testing.T) map[string]string {
	r := newRepo(t)
	r.write("a/b/f", "x", 0o644)
	r.commit()
	base := tempDir(t)
	wt := filepath.Join(base, "linked")
	r.git("worktree", "add", "-q", "--detach", wt)
	sep := filepath.Join(base, "separate")
	runGit(t, "", "init", "-q", "--separate-git-dir", filepath.Join(base, "separate.git"), sep)
	bare := filepath.Join(base, "bare.git")
	runGit(t, "", "init", "-q", "--bare", bare)
	unborn := newRepo(t)
	odd := filepath.Join(base, "line\nbreak ")
	runGit(t, "", "init", "-q", odd)
	if err := os.MkdirAll(filepath.Join(odd, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, "", "init", "-q", r.path("a/nested"))
	return map[string]string{
		"top level": r.dir, "subdirectory": r.path("a/b"), "linked worktree": wt,
		"linked worktree subdirectory": filepath.Join(wt, "a"), "separate git dir": sep,
		"bare repository": bare, "inside .git": r.path(".git/refs"), "unborn": unborn.dir,
		"newline and trailing space in the path": odd, "below such a path": filepath.Join(odd, "in"),
		"repository nested in a worktree": r.path("a/nested"), "outside any repository": outsideWorktree(t),
	}
}

// singleCallHead is HEAD and its branch as the contract's two calls see them.
func singleCallHead(ctx context.Context, r runner, root string) headState {
	return headState{head: r.text(ctx, root, "rev-parse", "--verify", "HEAD"),
		branch: r.text(ctx, root, "symbolic-ref", "--quiet", "--short", "HEAD")}
}

// sameHead reports whether a batched HEAD answer equals the single calls'
// answer; without a resolvable HEAD the branch is never used.
func sameHead(batched, single headState) bool {
	if !single.head.ok {
		return !batched.head.ok
	}
	return batched == single
}

// TestBatchedLocateEqualsSingleCalls proves that the one-process resolution
// gives what the contract's separate calls give, including HEAD and branch.
func TestBatchedLocateEqualsSingleCalls(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := newRunner(Limits{}.withDefaults())
	for name, dir := range oddRoots(t) {
		t.Run(name, func(t *testing.T) {
			dir, err := filepath.EvalSymlinks(dir)
			if err != nil {
				t.Fatal(err)
			}
			want := locateStepwise(ctx, r, dir)
			wantHead := singleCallHead(ctx, r, want.rootPath)
			for _, withHead := range []bool{false, true} {
				got := locate(ctx, r, dir, withHead)
				head := got.head
				got.head = nil
				if got != want {
					t.Fatalf("withHead=%v: batched %+v, single calls %+v", withHead, got, want)
				}
				if withHead && head != nil && !sameHead(*head, wantHead) {
					t.Fatalf("HEAD %+v, single calls %+v", *head, wantHead)
				}
				if withHead && want.dirsOK && head == nil && !strings.Contains(dir, "\n") {
					t.Fatalf("HEAD was not learned from the batch")
				}
			}
		})
	}
}

// TestBatchedHeadEqualsSingleCalls covers the shapes HEAD can take: the
// abbreviated name must be what "symbolic-ref --short" prints, and a detached
// or unborn HEAD must read as such.
func TestBatchedHeadEqualsSingleCalls(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	run := newRunner(Limits{}.withDefaults())
	r := newRepo(t)
	r.write("f", "x", 0o644)
	r.commit()
	cases := []struct {
		name  string
		setup func()
	}{
		{"unborn branch with a file named HEAD", func() { r.git("checkout", "-q", "--orphan", "fresh"); r.write("HEAD", "x", 0o644) }},
		{"unborn branch", func() { _ = os.Remove(r.path("HEAD")) }},
		{"branch", func() { r.git("checkout", "-q", "-f", "main") }},
		{"file named HEAD in the worktree", func() { r.write("HEAD", "x", 0o644) }},
		{"branch with a slash and non-ASCII", func() { r.git("checkout", "-q", "-b", "feature/ünï") }},
		{"branch name also used by a tag", func() { r.git("tag", "feature/ünï") }},
		{"branch name also used by a remote branch", func() {
			r.git("checkout", "-q", "-b", "origin/topic")
			r.git("update-ref", "refs/remotes/origin/topic", "HEAD")
		}},
		{"branch shaped like a ref path", func() { r.git("checkout", "-q", "-b", "heads/x") }},
		{"HEAD pointing at a tag ref", func() { r.git("symbolic-ref", "HEAD", "refs/tags/feature/ünï") }},
		{"a ref named refs/tags/HEAD makes HEAD ambiguous", func() { r.git("update-ref", "refs/tags/HEAD", "main") }},
		{"detached", func() { r.git("update-ref", "-d", "refs/tags/HEAD"); r.git("checkout", "-q", "--detach", "main") }},
		{"detached with packed refs", func() { r.git("pack-refs", "--all") }},
		{"branch after packing", func() { r.git("checkout", "-q", "main") }},
	}
	for _, c := range cases {
		c.setup()
		want := singleCallHead(ctx, run, r.dir)
		if got := readHead(ctx, run, r.dir); !sameHead(got, want) {
			t.Errorf("%s: Capture's call %+v, single calls %+v", c.name, got, want)
		}
		loc := locate(ctx, run, r.dir, true)
		// rev-parse cannot tell an unborn HEAD from a file named HEAD and
		// prints no abbreviation for an ambiguous name; both are left to
		// the single calls.
		unclear := strings.HasPrefix(c.name, "unborn branch with") || strings.HasPrefix(c.name, "a ref named")
		if unclear != (loc.head == nil) || loc.head != nil && !sameHead(*loc.head, want) {
			t.Errorf("%s: Inspect's batch %+v, single calls %+v", c.name, loc.head, want)
		}
	}
}

func TestReadBatchAcceptsOnlyUnambiguousOutput(t *testing.T) {
	three := "/w\n/w/.git\n/w/.git\n"
	sha := "0123456789abcdef0123456789abcdef01234567\n"
	cases := []struct {
		name     string
		out      string
		exit     int
		withHead bool
		verdict  batchVerdict
		head     headState
	}{
		{"paths", three, 0, false, batchUsable, headState{}},
		{"paths, HEAD and branch", three + sha + "main\n", 0, true, batchUsable,
			headState{gitText{sha[:40], true}, gitText{"main", true}}},
		{"detached HEAD", three + sha + "HEAD\n", 0, true, batchUsable, headState{head: gitText{sha[:40], true}}},
		{"HEAD not a revision", three + "HEAD\n", 128, true, batchUsable, headState{}},
		{"died before printing", "", 128, false, batchNotWorkTree, headState{}},
		{"died before printing, HEAD asked", "", 128, true, batchNotWorkTree, headState{}},
		{"died after the top level", "/w\n", 128, false, batchUnclear, headState{}},
		{"HEAD not a revision, but a file of that name exists", three + "HEAD\n--abbrev-ref=loose\n", 128, true, batchUnclear, headState{}},
		{"HEAD failed without HEAD asked", three + "HEAD\n", 128, false, batchUnclear, headState{}},
		{"other failure after the paths", three + "x\n", 128, true, batchUnclear, headState{}},
		{"exit 1", three, 1, false, batchUnclear, headState{}},
		{"unknown option echoed (old Git)", "--path-format=absolute\n" + three, 0, false, batchUnclear, headState{}},
		{"extra line", three + "x\n", 0, false, batchUnclear, headState{}},
		{"HEAD asked, branch line missing", three + sha, 0, true, batchUnclear, headState{}},
		{"missing final newline", "/w\n/w/.git\n/w/.git", 0, false, batchUnclear, headState{}},
		{"relative path", "/w\n.git\n.git\n", 0, false, batchUnclear, headState{}},
		{"blank path", "/w\n \n/w/.git\n", 0, false, batchUnclear, headState{}},
		{"killed", three, -1, false, batchUnclear, headState{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := readBatch([]byte(c.out), c.exit, 3, c.withHead)
			if b.verdict != c.verdict {
				t.Fatalf("verdict %v, want %v", b.verdict, c.verdict)
			}
			if c.verdict == batchUsable && c.withHead && (b.head == nil || *b.head != c.head) {
				t.Fatalf("head %+v, want %+v", b.head, c.head)
			}
		})
	}
}
