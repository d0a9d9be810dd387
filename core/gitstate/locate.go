package gitstate

import (
	"bytes"
	"context"
	"path/filepath"
)

// location is what Git says about a canonical requested directory.
type location struct {
	rootPath  string
	git       bool // inside a worktree (show-toplevel succeeded)
	dirsOK    bool // common and Git directories known
	commonDir string
	gitDir    string
	head      *gitText // HEAD learned on the way, nil when not asked or not learned
}

// locate resolves the requested directory with as few git processes as it
// can. Normally one "rev-parse" prints the top level, the common directory
// and the Git directory (and HEAD when withHead is set). The contract's
// separate calls run the directory queries from the top level; when the
// requested directory is below it, those queries are repeated there. Any
// output this batching cannot interpret unambiguously falls back to the
// contract's sequence of single calls, so the result never depends on the
// shortcut.
func locate(ctx context.Context, r runner, requested string, withHead bool) location {
	out, exit, _ := r.exec(ctx, requested, batchArgs(withHead, "--show-toplevel", "--git-common-dir", "--git-dir")...)
	b := readBatch(out, exit, 3, withHead)
	switch b.verdict {
	case batchNotWorkTree:
		return location{rootPath: requested}
	case batchUnclear:
		return locateStepwise(ctx, r, requested)
	}
	rootPath := realOr(b.paths[0], requested)
	if rootPath != requested {
		return locateDirs(ctx, r, rootPath, withHead)
	}
	return gitLocation(rootPath, b.paths[1], b.paths[2], b.head)
}

// locateDirs asks for the directories from the top level in one call.
func locateDirs(ctx context.Context, r runner, rootPath string, withHead bool) location {
	out, exit, _ := r.exec(ctx, rootPath, batchArgs(withHead, "--git-common-dir", "--git-dir")...)
	b := readBatch(out, exit, 2, withHead)
	if b.verdict != batchUsable {
		return stepwiseDirs(ctx, r, rootPath)
	}
	return gitLocation(rootPath, b.paths[0], b.paths[1], b.head)
}

// locateStepwise is the contract's sequence of single calls (§4.3).
func locateStepwise(ctx context.Context, r runner, requested string) location {
	top := r.text(ctx, requested, "rev-parse", "--show-toplevel")
	if !top.ok {
		return location{rootPath: requested}
	}
	return stepwiseDirs(ctx, r, realOr(top.value, requested))
}

// stepwiseDirs queries each directory separately, retrying without
// --path-format for Git versions that predate it.
func stepwiseDirs(ctx context.Context, r runner, rootPath string) location {
	query := func(flag string) gitText {
		if t := r.text(ctx, rootPath, "rev-parse", "--path-format=absolute", flag); t.ok {
			return t
		}
		return r.text(ctx, rootPath, "rev-parse", flag)
	}
	common, gitDir := query("--git-common-dir"), query("--git-dir")
	if !common.ok || !gitDir.ok {
		return location{rootPath: rootPath, git: true}
	}
	return gitLocation(rootPath, common.value, gitDir.value, nil)
}

// gitLocation resolves Git's directory outputs against the root and
// canonicalises those that exist.
func gitLocation(rootPath, common, gitDir string, head *gitText) location {
	resolve := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(rootPath, p)
		}
		p = filepath.Clean(p)
		return realOr(p, p)
	}
	return location{rootPath: rootPath, git: true, dirsOK: true,
		commonDir: resolve(common), gitDir: resolve(gitDir), head: head}
}

// realOr is the canonical form of p, or fallback when p does not resolve.
func realOr(p, fallback string) string {
	if real, ok := realpath(p); ok {
		return real
	}
	return fallback
}

// batchArgs is a rev-parse call printing the queries as absolute paths, one
// per line. With withHead it then prints HEAD's object id, or exits with
// status 1 and no further output when HEAD does not resolve.
func batchArgs(withHead bool, queries ...string) []string {
	args := append([]string{"rev-parse", "--path-format=absolute"}, queries...)
	if withHead {
		args = append(args, "--verify", "-q", "HEAD")
	}
	return args
}

type batchVerdict int

const (
	batchUsable      batchVerdict = iota
	batchNotWorkTree              // died before printing: the first query failed
	batchUnclear                  // anything else: use single calls
)

// batch is one rev-parse call printing several values, one per line.
type batch struct {
	verdict batchVerdict
	paths   []string
	head    *gitText
}

// readBatch interprets a rev-parse batch that asked for n paths (and HEAD
// when withHead is set). rev-parse prints each answer as it goes and dies
// (status 128) at the first query it cannot answer, while a quiet --verify
// that fails exits with status 1 after the paths. Exit 128 with no output
// therefore means the first query failed, exactly as it would alone.
func readBatch(out []byte, exit, n int, withHead bool) batch {
	want := n
	var head *gitText
	switch {
	case exit == 128 && len(out) == 0:
		return batch{verdict: batchNotWorkTree}
	case exit == 0 && withHead:
		want = n + 1
	case exit == 1 && withHead:
		head = &gitText{}
	case exit != 0:
		return batch{verdict: batchUnclear}
	}
	lines, ok := splitLines(out, want)
	if !ok {
		return batch{verdict: batchUnclear}
	}
	paths := make([]string, n)
	for i := range n {
		t := textOf(lines[i])
		if !t.ok || !filepath.IsAbs(t.value) {
			return batch{verdict: batchUnclear}
		}
		paths[i] = t.value
	}
	if want > n {
		t := textOf(lines[n])
		head = &t
	}
	return batch{verdict: batchUsable, paths: paths, head: head}
}

// splitLines splits newline-terminated output into exactly want lines.
func splitLines(out []byte, want int) ([][]byte, bool) {
	if len(out) == 0 || out[len(out)-1] != '\n' {
		return nil, false
	}
	lines := bytes.Split(out[:len(out)-1], []byte{'\n'})
	return lines, len(lines) == want
}
