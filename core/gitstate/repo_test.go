package gitstate

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestMain isolates every git process of the package's tests (including the
// ones the code under test starts, which inherit the environment) from the
// machine's Git configuration and from variables that redirect Git.
func TestMain(m *testing.M) {
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE",
		"GIT_OBJECT_DIRECTORY", "GIT_CEILING_DIRECTORIES", "GIT_NAMESPACE"} {
		os.Unsetenv(v)
	}
	os.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	os.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.Exit(m.Run())
}

// fixedIdentity makes commits reproducible.
var fixedIdentity = []string{
	"GIT_AUTHOR_NAME=Test", "GIT_AUTHOR_EMAIL=test@example.invalid", "GIT_AUTHOR_DATE=2026-01-02T03:04:05Z",
	"GIT_COMMITTER_NAME=Test", "GIT_COMMITTER_EMAIL=test@example.invalid", "GIT_COMMITTER_DATE=2026-01-02T03:04:05Z",
}

// repo is a Git repository created for one test.
type repo struct {
	t   testing.TB
	dir string // canonical path of the worktree
}

// tempDir is t.TempDir in canonical form (it may sit behind a symlink).
func tempDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// newRepo initialises an empty repository whose initial branch is main.
func newRepo(t testing.TB) *repo {
	t.Helper()
	r := &repo{t: t, dir: filepath.Join(tempDir(t), "repo")}
	runGit(t, "", "init", "-q", "-b", "main", r.dir)
	return r
}

// runGit runs git in dir (or without -C when dir is empty) and returns its
// stdout, failing the test when git fails.
func runGit(t testing.TB, dir string, args ...string) []byte {
	t.Helper()
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	cmd := exec.Command("git", args...)
	cmd.Env = append(os.Environ(), fixedIdentity...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

func (r *repo) git(args ...string) []byte {
	r.t.Helper()
	return runGit(r.t, r.dir, args...)
}

func (r *repo) path(rel string) string { return filepath.Join(r.dir, filepath.FromSlash(rel)) }

// write creates or replaces a regular file with the given mode.
func (r *repo) write(rel, content string, mode os.FileMode) {
	r.t.Helper()
	p := r.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		r.t.Fatal(err)
	}
}

// symlink creates or replaces a symbolic link.
func (r *repo) symlink(rel, target string) {
	r.t.Helper()
	p := r.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	_ = os.Remove(p)
	if err := os.Symlink(target, p); err != nil {
		r.t.Fatal(err)
	}
}

// commit stages the given paths (all changes when none) and commits.
func (r *repo) commit(paths ...string) {
	r.t.Helper()
	if len(paths) == 0 {
		r.git("add", "-A")
	} else {
		r.git(append([]string{"add", "--"}, paths...)...)
	}
	r.git("commit", "-q", "-m", "test commit")
}

// layoutEntry is one line of a testdata repository layout.
type layoutEntry struct {
	state, path, content string
	mode                 string // "644", "755" or "link"
}

// loadLayout reads testdata/<name>: "<state> <mode> <path> [content]".
func loadLayout(t testing.TB, name string) []layoutEntry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	var entries []layoutEntry
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 4)
		if len(f) < 3 {
			t.Fatalf("bad layout line %q", line)
		}
		e := layoutEntry{state: f[0], mode: f[1], path: f[2]}
		if len(f) == 4 {
			e.content = f[3]
		}
		entries = append(entries, e)
	}
	return entries
}

// applyLayout materialises a layout and commits its tracked entries.
func (r *repo) applyLayout(entries []layoutEntry) {
	r.t.Helper()
	var tracked []string
	for _, e := range entries {
		if e.mode == "link" {
			r.symlink(e.path, e.content)
		} else {
			m, err := strconv.ParseUint(e.mode, 8, 32)
			if err != nil {
				r.t.Fatal(err)
			}
			r.write(e.path, e.content+"\n", os.FileMode(m))
		}
		if e.state == "tracked" {
			tracked = append(tracked, e.path)
		}
	}
	r.commit(tracked...)
}

// smallRepo is a repository with the testdata/small-repo.txt layout.
func smallRepo(t testing.TB) *repo {
	t.Helper()
	r := newRepo(t)
	r.applyLayout(loadLayout(t, "small-repo.txt"))
	return r
}
