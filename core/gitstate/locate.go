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
	head      *headState // HEAD learned on the way, nil when not asked or not learned
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

// locateStepwise is the contract's sequence of single calls
// (docs/contract.md#repository-identity).
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
func gitLocation(rootPath, common, gitDir string, head *headState) location {
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
// per line. With withHead it then prints HEAD's object id and the short name
// of the branch HEAD points at ("HEAD" when detached); when HEAD does not
// resolve it prints "HEAD" and exits with status 128 instead.
func batchArgs(withHead bool, queries ...string) []string {
	args := append([]string{"rev-parse", "--path-format=absolute"}, queries...)
	if withHead {
		args = append(args, headArgs()...)
	}
	return args
}

// headArgs ask rev-parse for HEAD's object id, then (with abbreviation on)
// for the name HEAD resolves to, shortened by the same rule that
// "symbolic-ref --short" applies (loose mode).
func headArgs() []string { return []string{"HEAD", "--abbrev-ref=loose", "HEAD"} }

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
	head    *headState // nil when HEAD was not asked for
}

// readBatch interprets a rev-parse batch that asked for n paths (and HEAD
// when withHead is set). rev-parse prints each answer as it goes and dies
// with status 128 at the first argument it cannot answer, so:
//   - status 128 and no output: the first query failed, as it would alone
//     (the repository could not be set up, or there is no worktree);
//   - status 0 and n (+2) lines: every query answered;
//   - status 128, n lines and then "HEAD": HEAD is not a revision (no commit
//     yet), and rev-parse fell back to treating it as a missing file name.
//
// Everything else is unclear and left to the single calls.
func readBatch(out []byte, exit, n int, withHead bool) batch {
	lines, ok := splitLines(out)
	var head *headState
	switch {
	case exit == 128 && len(out) == 0:
		return batch{verdict: batchNotWorkTree}
	case !ok:
		return batch{verdict: batchUnclear}
	case exit == 0 && !withHead && len(lines) == n:
	case exit == 0 && withHead && len(lines) == n+2:
		head = &headState{head: textOf(lines[n]), branch: branchOf(lines[n+1])}
	case exit == 128 && withHead && len(lines) == n+1 && string(lines[n]) == "HEAD":
		head = &headState{}
	default:
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
	return batch{verdict: batchUsable, paths: paths, head: head}
}

// branchOf reads the abbreviated name HEAD resolves to. rev-parse prints
// "HEAD" exactly when HEAD is detached: a branch HEAD points at never
// shortens to "HEAD", since that would be ambiguous with HEAD itself.
func branchOf(line []byte) gitText {
	t := textOf(line)
	if t.value == "HEAD" {
		return gitText{}
	}
	return t
}

// splitLines splits newline-terminated output into lines.
func splitLines(out []byte) ([][]byte, bool) {
	if len(out) == 0 || out[len(out)-1] != '\n' {
		return nil, false
	}
	return bytes.Split(out[:len(out)-1], []byte{'\n'}), true
}
