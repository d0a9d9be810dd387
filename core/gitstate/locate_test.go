package gitstate

import (
	"context"
	"os"
	"path/filepath"
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
	sub := newRepo(t)
	sub.write("s", "s", 0o644)
	sub.commit()
	r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, "mod")
	return map[string]string{
		"top level": r.dir, "subdirectory": r.path("a/b"), "linked worktree": wt,
		"linked worktree subdirectory": filepath.Join(wt, "a"), "separate git dir": sep,
		"bare repository": bare, "inside .git": r.path(".git/refs"), "unborn": unborn.dir,
		"newline and trailing space in the path": odd, "below such a path": filepath.Join(odd, "in"),
		"submodule": r.path("mod"), "outside any repository": outsideWorktree(t),
	}
}

// TestBatchedLocateEqualsSingleCalls proves that the one-process resolution
// gives what the contract's separate calls give, including HEAD.
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
			wantHead := r.text(ctx, want.rootPath, "rev-parse", "--verify", "HEAD")
			for _, withHead := range []bool{false, true} {
				got := locate(ctx, r, dir, withHead)
				head := got.head
				got.head = nil
				if got != want {
					t.Fatalf("withHead=%v: batched %+v, single calls %+v", withHead, got, want)
				}
				if withHead && head != nil && *head != wantHead {
					t.Fatalf("HEAD %+v, single call %+v", *head, wantHead)
				}
				if withHead && want.dirsOK && head == nil && name != "newline and trailing space in the path" &&
					name != "below such a path" {
					t.Fatalf("HEAD was not learned from the batch")
				}
			}
		})
	}
}

func TestReadBatchAcceptsOnlyUnambiguousOutput(t *testing.T) {
	three := "/w\n/w/.git\n/w/.git\n"
	cases := []struct {
		name     string
		out      string
		exit     int
		withHead bool
		verdict  batchVerdict
		headOK   bool
	}{
		{"paths", three, 0, false, batchUsable, false},
		{"paths and HEAD", three + "0123\n", 0, true, batchUsable, true},
		{"paths and unresolvable HEAD", three, 1, true, batchUsable, false},
		{"died before printing", "", 128, false, batchNotWorkTree, false},
		{"died before printing, HEAD asked", "", 128, true, batchNotWorkTree, false},
		{"died after the top level", "/w\n", 128, false, batchUnclear, false},
		{"quiet failure without output (old Git)", "", 1, true, batchUnclear, false},
		{"exit 1 without HEAD asked", three, 1, false, batchUnclear, false},
		{"unknown option echoed (old Git)", "--path-format=absolute\n" + three, 0, false, batchUnclear, false},
		{"extra line", three + "x\n", 0, false, batchUnclear, false},
		{"missing final newline", "/w\n/w/.git\n/w/.git", 0, false, batchUnclear, false},
		{"relative path", "/w\n.git\n.git\n", 0, false, batchUnclear, false},
		{"blank path", "/w\n \n/w/.git\n", 0, false, batchUnclear, false},
		{"killed", three, -1, false, batchUnclear, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := readBatch([]byte(c.out), c.exit, 3, c.withHead)
			if b.verdict != c.verdict {
				t.Fatalf("verdict %v, want %v", b.verdict, c.verdict)
			}
			if c.verdict == batchUsable && c.withHead && (b.head == nil || b.head.ok != c.headOK) {
				t.Fatalf("head %+v, want ok=%v", b.head, c.headOK)
			}
		})
	}
}
