//go:build unix

package gitstate

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// trap is a program that a hostile repository points Git at: it records
// each run in a marker file, then behaves enough like the program Git
// expects (a filter copies stdin, a textconv prints its file) for the git
// call to go on.
type trap struct {
	marker  string // one line per run
	program string // for filters, textconv, fsmonitor, external diff: a shell command
	process string // for a long-running filter process, which records and exits: a shell command
	// programPath is the file program runs, for a hook to exec.
	programPath string
}

func newTrap(t *testing.T) trap {
	t.Helper()
	// Git hands these commands to the shell: the paths are quoted, as a
	// TMPDIR may hold spaces, and the folder is not t.TempDir, whose name
	// holds a subtest's parentheses.
	dir, err := os.MkdirTemp("", "trap")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	program, process := filepath.Join(dir, "trap.sh"), filepath.Join(dir, "process.sh")
	tr := trap{marker: filepath.Join(dir, "runs"), program: shellWord(program), process: shellWord(process), programPath: program}
	record := "#!/bin/sh\nprintf '%s %s\\n' \"$0\" \"$*\" >> " + shellWord(tr.marker) + "\n"
	scripts := map[string]string{
		program: record + "if [ -n \"$1\" ] && [ -f \"$1\" ]; then cat \"$1\"; else cat; fi\n",
		process: record + "exit 0\n",
	}
	for path, body := range scripts {
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

// shellWord quotes s as one POSIX shell word.
func shellWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// runs returns the recorded runs and forgets them.
func (tr trap) runs() []string {
	data, _ := os.ReadFile(tr.marker)
	_ = os.Remove(tr.marker)
	if len(data) == 0 {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// hostileRepo is a committed repository whose a.txt, b.bin, c.inc and d.dot are then
// rewritten with contents of the same size (so that status must read them
// to tell whether they changed), whose e.txt has an older modification time
// than the index records (so that a plain status refreshes and writes the
// index) and which has one untracked file.
func hostileRepo(t *testing.T, attributes string) *repo {
	t.Helper()
	r := newRepo(t)
	r.write(".gitattributes", attributes, 0o644)
	for _, f := range []string{"a.txt", "b.bin", "c.inc", "d.dot"} {
		r.write(f, "one\n", 0o644)
	}
	r.write("e.txt", "same\n", 0o644)
	r.commit()
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(r.path("e.txt"), old, old); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"a.txt", "b.bin", "c.inc", "d.dot"} {
		r.write(f, "two\n", 0o644)
	}
	r.write("new.txt", "new\n", 0o644)
	return r
}

// plainGit runs git as the reference does: the inherited environment and
// nothing switched off. Its result does not matter, only what it starts.
func plainGit(dir string, args ...string) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	_ = cmd.Run()
}

// TestARepositoryCannotMakeGitRunAProgram arms one way at a time for a
// repository (or the environment this process inherited) to make Git run a
// program. It first proves that the plain git call which the reference makes
// (or Git's default) does run the program, then that inspecting and
// capturing the repository runs it 0 times.
func TestARepositoryCannotMakeGitRunAProgram(t *testing.T) {
	status := []string{"status", "--porcelain=v1", "-z", "--untracked-files=all"}
	diff := []string{"diff", "--no-ext-diff", "--binary", "HEAD", "--"}
	cases := []struct {
		name  string
		arm   func(t *testing.T, r *repo, tr trap)
		plain []string // a call that runs the program without the hardening
	}{
		{"core.fsmonitor hook", func(t *testing.T, r *repo, tr trap) {
			r.git("config", "core.fsmonitor", tr.program)
		}, status},
		{"post-index-change hook under core.hooksPath", func(t *testing.T, r *repo, tr trap) {
			hooks := r.path(".hooks")
			writeHook(t, hooks, "post-index-change", tr.programPath)
			r.git("config", "core.hooksPath", hooks)
		}, status},
		{"post-index-change hook in .git/hooks", func(t *testing.T, r *repo, tr trap) {
			writeHook(t, r.path(".git/hooks"), "post-index-change", tr.programPath)
		}, status},
		{"clean filter (status)", func(t *testing.T, r *repo, tr trap) {
			r.git("config", "filter.evil.clean", tr.program)
			r.git("config", "filter.evil.smudge", tr.program)
		}, status},
		{"clean filter (diff)", func(t *testing.T, r *repo, tr trap) {
			r.git("config", "filter.evil.clean", tr.program)
			r.git("config", "filter.evil.required", "true")
		}, diff},
		{"long-running filter process", func(t *testing.T, r *repo, tr trap) {
			r.git("config", "filter.proc.process", tr.process)
		}, status},
		{"filter whose name has dots", func(t *testing.T, r *repo, tr trap) {
			r.git("config", "filter.dotted.name.clean", tr.program)
		}, status},
		{"filter defined in an included file", func(t *testing.T, r *repo, tr trap) {
			inc := filepath.Join(tempDir(t), "included")
			runGit(t, "", "config", "--file", inc, "filter.inc.clean", tr.program)
			r.git("config", "include.path", inc)
		}, status},
		{"filter defined under includeIf onbranch", func(t *testing.T, r *repo, tr trap) {
			inc := filepath.Join(tempDir(t), "onbranch")
			runGit(t, "", "config", "--file", inc, "filter.inc.clean", tr.program)
			r.git("config", "includeIf.onbranch:main.path", inc)
		}, status},
		{"diff textconv", func(t *testing.T, r *repo, tr trap) {
			r.git("config", "diff.evil.textconv", tr.program)
		}, diff},
		{"diff driver command", func(t *testing.T, r *repo, tr trap) {
			r.git("config", "diff.evil.command", tr.program)
		}, []string{"diff", "HEAD"}},
		{"diff.external", func(t *testing.T, r *repo, tr trap) {
			r.git("config", "diff.external", tr.program)
		}, []string{"diff", "HEAD"}},
		{"GIT_EXTERNAL_DIFF inherited", func(t *testing.T, r *repo, tr trap) {
			t.Setenv("GIT_EXTERNAL_DIFF", tr.program)
		}, []string{"diff", "HEAD"}},
		{"pagers", func(t *testing.T, r *repo, tr trap) {
			r.git("config", "core.pager", tr.program)
			r.git("config", "pager.status", tr.program)
			r.git("config", "pager.diff", tr.program)
			t.Setenv("GIT_PAGER", tr.program)
			t.Setenv("PAGER", tr.program)
		}, nil}, // Git pages only a terminal
	}
	const attributes = "a.txt filter=evil diff=evil\nb.bin filter=proc\nc.inc filter=inc diff=evil\n" +
		"d.dot filter=dotted.name\n"
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := hostileRepo(t, attributes)
			tr := newTrap(t)
			c.arm(t, r, tr)
			if c.plain != nil {
				plainGit(r.dir, c.plain...)
				if tr.runs() == nil {
					t.Fatalf("the trap is not armed: plain git %s ran nothing", strings.Join(c.plain, " "))
				}
			}
			id, cp, err := InspectAndCapture(context.Background(), r.dir, "")
			if err != nil {
				t.Fatal(err)
			}
			_ = Capture(context.Background(), id)
			var observer Observer
			if _, ocp, err := observer.InspectAndCapture(context.Background(), r.dir, ""); err != nil ||
				!reflect.DeepEqual(withoutTime(ocp), withoutTime(cp)) {
				t.Fatalf("an Observer captures %v (%v), the package %v", ocp.Map(), err, cp.Map())
			}
			if runs := tr.runs(); runs != nil {
				t.Fatalf("checkpoints ran the repository's program %d times:\n%s", len(runs), strings.Join(runs, "\n"))
			}
			if cp.Digests == nil || cp.Digests.StateSHA256 == nil || cp.Digests.IndexSHA256 == nil {
				t.Fatalf("the checkpoint must stay complete: %v", cp.Map())
			}
		})
	}
}

func writeHook(t *testing.T, dir, name, program string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	body := "#!/bin/sh\nexec " + shellWord(program) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestASubmodulesOwnFilterDoesNotRun covers a filter that only a submodule's
// configuration defines: a plain status looks into the submodule's worktree
// with a git process of its own, which reads that configuration.
func TestASubmodulesOwnFilterDoesNotRun(t *testing.T) {
	tr := newTrap(t)
	sub := newRepo(t)
	sub.write(".gitattributes", "f.txt filter=subf\n", 0o644)
	sub.write("f.txt", "one\n", 0o644)
	sub.commit()
	super := smallRepo(t)
	super.git("-c", "protocol.file.allow=always", "submodule", "--quiet", "add", sub.dir, "sub")
	super.commit()
	runGit(t, super.path("sub"), "config", "filter.subf.clean", tr.program)
	super.write("sub/f.txt", "two\n", 0o644)
	plainGit(super.dir, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if tr.runs() == nil {
		t.Fatal("the trap is not armed: a plain status ran nothing")
	}
	_, cp, err := InspectAndCapture(context.Background(), super.dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if runs := tr.runs(); runs != nil {
		t.Fatalf("checkpoints ran the submodule's program %d times:\n%s", len(runs), strings.Join(runs, "\n"))
	}
	if cp.Digests == nil || cp.Digests.StateSHA256 == nil {
		t.Fatalf("the checkpoint must stay complete: %v", cp.Map())
	}
}

// TestAFilterNameThatCannotBeSwitchedOffFailsClosed: "-c" cannot name a
// driver whose name holds "=", so status and diff do not run at all and the
// values that depend on them are null.
func TestAFilterNameThatCannotBeSwitchedOffFailsClosed(t *testing.T) {
	tr := newTrap(t)
	r := hostileRepo(t, "a.txt filter=a=b\n")
	r.git("config", "filter.a=b.clean", tr.program)
	plainGit(r.dir, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if tr.runs() == nil {
		t.Fatal("the trap is not armed: a plain status ran nothing")
	}
	_, cp, err := InspectAndCapture(context.Background(), r.dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if runs := tr.runs(); runs != nil {
		t.Fatalf("checkpoints ran the repository's program %d times", len(runs))
	}
	if cp.HeadSHA == nil || cp.Digests == nil || cp.Digests.IndexSHA256 == nil ||
		cp.Digests.StateSHA256 != nil || cp.Dirty != nil {
		t.Fatalf("want head and index only, got %v", cp.Map())
	}
}

// TestInheritedGitVariablesDoNotRedirectObservation sets the variables a
// hook's environment carries (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE) to
// another repository: the identity and checkpoint stay those of the
// directory asked about.
func TestInheritedGitVariablesDoNotRedirectObservation(t *testing.T) {
	r, other := smallRepo(t), smallRepo(t)
	other.write("extra.txt", "x\n", 0o644)
	ctx := context.Background()
	wantID, wantCP, err := InspectAndCapture(ctx, r.dir, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_DIR", other.path(".git"))
	t.Setenv("GIT_WORK_TREE", other.dir)
	t.Setenv("GIT_INDEX_FILE", other.path(".git/index"))
	gotID, gotCP, err := InspectAndCapture(ctx, r.dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if gotID.WorktreeID != wantID.WorktreeID || gotID.RepositoryKey != wantID.RepositoryKey {
		t.Fatalf("identity %+v, want %+v", gotID, wantID)
	}
	if str(gotCP.Digests.StateSHA256) != str(wantCP.Digests.StateSHA256) ||
		str(gotCP.Digests.IndexSHA256) != str(wantCP.Digests.IndexSHA256) {
		t.Fatalf("checkpoint %v, want %v", gotCP.Map(), wantCP.Map())
	}
}

// TestCheckpointsLeaveTheIndexAlone captures a worktree whose files have
// changed time stamps but not contents (which makes a plain status or diff
// rewrite the index) and requires the index file to be untouched, the
// digests to equal those of the plain git calls, and no index.lock left.
func TestCheckpointsLeaveTheIndexAlone(t *testing.T) {
	r := smallRepo(t)
	r.write("bin/data.bin", "\x00\x01binary\x00", 0o644)
	r.commit()
	r.write("README.md", "changed\n", 0o644)
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, f := range []string{"src/a.go", "bin/data.bin", "bin/run.sh"} {
		if err := os.Chtimes(r.path(f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	index := r.path(".git/index")
	before, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	infoBefore, _ := os.Stat(index)
	_, cp, err := InspectAndCapture(context.Background(), r.dir, "")
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(index)
	infoAfter, _ := os.Stat(index)
	if string(after) != string(before) || !infoAfter.ModTime().Equal(infoBefore.ModTime()) {
		t.Fatal("the checkpoint rewrote the index")
	}
	wantIndex, wantState := wantDigests(t, r.dir) // plain git: these refresh the index
	if str(cp.Digests.IndexSHA256) != wantIndex || str(cp.Digests.StateSHA256) != wantState {
		t.Fatalf("digests %v, want index %s state %s", cp.Map(), wantIndex, wantState)
	}
	if refreshed, _ := os.ReadFile(index); string(refreshed) == string(before) {
		t.Fatal("the fixture does not make plain git refresh the index")
	}
}

// withoutTime is cp's map without the capture time.
func withoutTime(cp Checkpoint) map[string]any {
	cp.CapturedAt = ""
	return cp.Map()
}
